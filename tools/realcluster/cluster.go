package realcluster

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Bin holds the paths of the binaries `realcluster build` writes: KC, the
// multi-call binary (etcd, kube-apiserver, kube-controller-manager,
// kube-scheduler, kubectl), Kwok, and Kubectl, a directory with a kubectl
// symlink to KC for the replay scripts' PATH.
type Bin struct {
	KC, Kwok, Dir string
}

// BinIn returns the binaries of dir.
func BinIn(dir string) Bin {
	return Bin{KC: filepath.Join(dir, "kc"), Kwok: filepath.Join(dir, "kwok"), Dir: dir}
}

// token is the static bearer token of every component and of kubectl: the
// cluster listens on loopback only and lives for one replay.
const token = "converge-realcluster-token"

// Cluster is a running control plane: etcd, kube-apiserver,
// kube-controller-manager, kube-scheduler and kwok, each a process of ours,
// on free loopback ports, with its files in Dir.
type Cluster struct {
	Dir        string
	Kubeconfig string
	// API is the API server's address, https://127.0.0.1:PORT.
	API   string
	procs []*proc
	http  *http.Client
}

type proc struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
}

// Node is a node to create: its name and capacity.
type Node struct {
	Name, CPU, Memory string
	Pods              int
}

// freePort asks the kernel for a free loopback port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Up starts a cluster in dir (which it creates) with the given nodes and
// kwok stages. On any failure it stops what it started and removes nothing
// else; the caller calls Down on success, always.
func Up(ctx context.Context, bin Bin, dir string, nodes []Node, stages []byte) (c *Cluster, err error) {
	if err := os.MkdirAll(filepath.Join(dir, "certs"), 0o755); err != nil {
		return nil, err
	}
	c = &Cluster{Dir: dir, http: &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, // #nosec: loopback, a self-signed certificate of our own
	}}}
	defer func() {
		if err != nil {
			c.Down()
			c = nil
		}
	}()
	ports := make([]int, 3)
	for i := range ports {
		if ports[i], err = freePort(); err != nil {
			return c, err
		}
	}
	etcdPort, peerPort, apiPort := ports[0], ports[1], ports[2]
	c.API = "https://127.0.0.1:" + strconv.Itoa(apiPort)
	if err := c.writeFiles(stages); err != nil {
		return c, err
	}
	etcdURL := "http://127.0.0.1:" + strconv.Itoa(etcdPort)
	peerURL := "http://127.0.0.1:" + strconv.Itoa(peerPort)
	if err := c.start("etcd", bin.KC, "etcd", "--name", "default", "--data-dir", filepath.Join(dir, "etcd"),
		"--listen-client-urls", etcdURL, "--advertise-client-urls", etcdURL,
		"--listen-peer-urls", peerURL, "--initial-advertise-peer-urls", peerURL,
		"--initial-cluster", "default="+peerURL, "--unsafe-no-fsync", "--log-level", "warn"); err != nil {
		return c, err
	}
	if err := c.waitFor(ctx, "etcd", 60*time.Second, func() bool { return c.get(etcdURL+"/health", nil) == nil }); err != nil {
		return c, err
	}
	certs := filepath.Join(dir, "certs")
	// ServiceAccount admission is off: a pod created in the replay's new
	// namespace before the service account controller made its default
	// service account would be refused for a moment, which no scenario means.
	if err := c.start("kube-apiserver", bin.KC, "kube-apiserver",
		"--etcd-servers", etcdURL, "--bind-address", "127.0.0.1", "--advertise-address", "127.0.0.1",
		"--secure-port", strconv.Itoa(apiPort), "--cert-dir", certs,
		"--token-auth-file", filepath.Join(certs, "tokens.csv"), "--authorization-mode", "RBAC",
		"--service-account-issuer", "https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file", filepath.Join(certs, "sa.pub"),
		"--service-account-signing-key-file", filepath.Join(certs, "sa.key"),
		"--service-cluster-ip-range", "10.96.0.0/16", "--endpoint-reconciler-type", "none",
		"--disable-admission-plugins", "ServiceAccount", "--event-ttl", "1h"); err != nil {
		return c, err
	}
	if err := c.waitFor(ctx, "kube-apiserver", 120*time.Second, func() bool { return c.get(c.API+"/readyz", nil) == nil }); err != nil {
		return c, err
	}
	if err := c.start("kube-controller-manager", bin.KC, "kube-controller-manager",
		"--kubeconfig", c.Kubeconfig, "--leader-elect=false", "--secure-port", "0",
		"--service-account-private-key-file", filepath.Join(certs, "sa.key"), "--use-service-account-credentials=false"); err != nil {
		return c, err
	}
	if err := c.start("kube-scheduler", bin.KC, "kube-scheduler", "--kubeconfig", c.Kubeconfig, "--leader-elect=false", "--secure-port", "0"); err != nil {
		return c, err
	}
	if err := c.start("kwok", bin.Kwok, "--kubeconfig", c.Kubeconfig, "--manage-all-nodes=true",
		"--server-address", "127.0.0.1:0", "--node-lease-duration-seconds", "40",
		"--config", filepath.Join(dir, "kwok-stages.yaml")); err != nil {
		return c, err
	}
	for _, n := range nodes {
		if err := c.createNode(n); err != nil {
			return c, err
		}
	}
	err = c.waitFor(ctx, "the nodes", 90*time.Second, func() bool {
		var list struct {
			Items []struct {
				Status struct {
					Conditions []struct{ Type, Status string }
				}
			}
		}
		if c.get(c.API+"/api/v1/nodes", &list) != nil {
			return false
		}
		ready := 0
		for _, n := range list.Items {
			for _, cond := range n.Status.Conditions {
				if cond.Type == "Ready" && cond.Status == "True" {
					ready++
				}
			}
		}
		return ready == len(nodes)
	})
	return c, err
}

func (c *Cluster) writeFiles(stages []byte) error {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return err
	}
	certs := filepath.Join(c.Dir, "certs")
	c.Kubeconfig = filepath.Join(c.Dir, "kubeconfig")
	files := map[string][]byte{
		filepath.Join(certs, "sa.key"):     pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}),
		filepath.Join(certs, "sa.pub"):     pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}),
		filepath.Join(certs, "tokens.csv"): []byte(token + ",admin,admin,system:masters\n"),
		c.Kubeconfig: []byte(`apiVersion: v1
kind: Config
clusters:
- name: local
  cluster: {server: "` + c.API + `", insecure-skip-tls-verify: true}
users:
- name: admin
  user: {token: ` + token + `}
contexts:
- name: local
  context: {cluster: local, user: admin}
current-context: local
`),
		filepath.Join(c.Dir, "kwok-stages.yaml"): stages,
	}
	for _, name := range []string{filepath.Join(certs, "sa.key"), filepath.Join(certs, "sa.pub"), filepath.Join(certs, "tokens.csv"), c.Kubeconfig, filepath.Join(c.Dir, "kwok-stages.yaml")} {
		if err := os.WriteFile(name, files[name], 0o600); err != nil {
			return err
		}
	}
	return nil
}

// start runs a component in the background, its output to NAME.log. The
// process dies with us (Pdeathsig), and Down stops it by its PID.
func (c *Cluster) start(name, path string, args ...string) error {
	logf, err := os.Create(filepath.Join(c.Dir, name+".log"))
	if err != nil {
		return err
	}
	cmd := exec.Command(path, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("start %s: %w", name, err)
	}
	p := &proc{name: name, cmd: cmd, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		logf.Close()
		close(p.done)
	}()
	c.procs = append(c.procs, p)
	return nil
}

// PIDs are the component processes' IDs, by name.
func (c *Cluster) PIDs() map[string]int {
	out := map[string]int{}
	for _, p := range c.procs {
		out[p.name] = p.cmd.Process.Pid
	}
	return out
}

// Down stops every component, newest first: SIGTERM, then SIGKILL after
// five seconds. It waits until each has exited.
func (c *Cluster) Down() {
	if c == nil {
		return
	}
	for i := len(c.procs) - 1; i >= 0; i-- {
		p := c.procs[i]
		select {
		case <-p.done:
			continue
		default:
		}
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	}
	c.procs = nil
}

func (c *Cluster) waitFor(ctx context.Context, what string, limit time.Duration, ok func() bool) error {
	deadline := time.Now().Add(limit)
	for {
		if ok() {
			return nil
		}
		for _, p := range c.procs {
			select {
			case <-p.done:
				return fmt.Errorf("%s exited while waiting for %s (see %s)", p.name, what, filepath.Join(c.Dir, p.name+".log"))
			default:
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not ready after %s", what, limit)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// get GETs url (with the token) and decodes the JSON answer into out, when
// out is not nil.
func (c *Cluster) get(url string, out any) error {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s: %s", url, resp.Status, strings.TrimSpace(string(body)))
	}
	if out == nil {
		return nil
	}
	if raw, ok := out.(*json.RawMessage); ok {
		*raw = body
		return nil
	}
	return json.Unmarshal(body, out)
}

// GetRaw GETs an API path and returns the JSON.
func (c *Cluster) GetRaw(path string) (json.RawMessage, error) {
	var raw json.RawMessage
	err := c.get(c.API+path, &raw)
	return raw, err
}

func (c *Cluster) createNode(n Node) error {
	body, _ := json.Marshal(map[string]any{
		"apiVersion": "v1", "kind": "Node",
		"metadata": map[string]any{
			"name":        n.Name,
			"labels":      map[string]string{"kubernetes.io/hostname": n.Name, "kubernetes.io/os": "linux", "type": "kwok"},
			"annotations": map[string]string{"node.alpha.kubernetes.io/ttl": "0", "kwok.x-k8s.io/node": "fake"},
		},
		"status": map[string]any{
			"allocatable": map[string]string{"cpu": n.CPU, "memory": n.Memory, "pods": strconv.Itoa(n.Pods)},
			"capacity":    map[string]string{"cpu": n.CPU, "memory": n.Memory, "pods": strconv.Itoa(n.Pods)},
		},
	})
	req, err := http.NewRequest(http.MethodPost, c.API+"/api/v1/nodes", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("create node %s: %s: %s", n.Name, resp.Status, b)
	}
	return nil
}

// errNotReplayable marks a scenario the cluster cannot replay.
var errNotReplayable = errors.New("not replayable")
