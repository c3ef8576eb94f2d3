package kubectl

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fuzzSeeds are command lines of every command, well- and ill-formed.
var fuzzSeeds = []string{
	"", "kubectl", "get pods", "get deploy,rs -o wide --show-labels", "get po -l 'app in (web)' -o name", "get all -A",
	"get deploy web -o yaml", "get pods web-66b6c48dd5-4jw2m -o json", "get nodes --no-headers", "get ev", "get cm,svc,ep",
	"describe deploy web", "describe pods", "describe node node-1", "describe svc/web", "describe rs -l app=web",
	"scale deploy/web --replicas=5", "scale rs -l app=web --replicas=1", "scale deploy web --replicas=2 --current-replicas=3",
	"set image deployment/web web=nginx:1.26", "set image deploy/web foo=x", "set env deploy/web A=1 B-", "set env deploy/web --list",
	"patch deploy web --type=merge -p '{\"spec\":{\"replicas\":4}}'", "patch deploy web -p '{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"web\",\"image\":\"x\"}]}}}}'",
	"patch deploy web --type=json -p '[{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":1}]'",
	"label deploy web tier=front", "label deploy web app=x", "label pods --all a=b --overwrite", "annotate deploy web note- ",
	"label deploy web k=v=w", "label deploy web app=web!", "label deploy web a=b a-", "label deploy web x- y=z", "label deploy,svc -l app=web --list",
	"annotate deploy web a=b=c", "annotate deploy web =x", "label deploy web 'bad key!=v'",
	"taint nodes node-1 dedicated=web:NoSchedule", "taint nodes node-1 dedicated-", "taint node node-1 k=v:Bad", "taint nodes --all -l a=b a:NoSchedule",
	"taint nodes node-1 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute", "get quota", "describe quota compute", "get pdb -o wide",
	"describe pdb web", "delete deploy web --cascade=foreground", "drain node-1 --disable-eviction", "drain node-1 --dry-run=server",
	"rollout status deploy/web", "rollout history deploy/web --revision=1", "rollout undo deploy/web --to-revision=7",
	"rollout restart deploy/web", "rollout pause deploy/web", "rollout resume deployment web", "rollout",
	"delete pod web-66b6c48dd5-4jw2m", "delete pod -l app=web --grace-period=0 --force", "delete deploy web --cascade=orphan",
	"delete cm settings --dry-run=client", "delete svc web ep/web",
	"cordon node-1", "uncordon node-2", "drain node-1 --ignore-daemonsets --force", "drain node-2 --delete-emptydir-data",
	"create deployment api --image=nginx --replicas=2 --port=80", "create configmap c --from-literal=a=b --from-literal=c=d",
	"apply -f web.json", "apply -f -", "version -o yaml", "api-resources -o wide",
	"frobnicate", "get", "get foo", "scale --selector-typo", "get pods -o", "get \"unterminated", "get 'x\\", "-n", "-- get",
	"get pods -n other", "get pods --namespace=default -w", "scale deploy/web --replicas=-1", "set image deploy/web web=",
	"scael deployment/web", "scale deployment/web --replicas=abc", "scale deployment/web '--replicas=abc'", "get pods -Ax",
	"create deploy web --image=x -rx", "kubectl  -n x rollout stats deploy/web", "scale deploy/web --replicas abc",
	"rollout status deploy/web --timeout=10s", "wait --for=condition=Available deploy/web", "wait --for=delete pod -l app=web",
	"wait --for=jsonpath='{.status.conditions[?(@.type==\"Available\")].status}'=True deploy/web --timeout=5s",
	"wait --for=create deployments -l app=x", "wait --for=jsonpath={.a[*].b} deploy/web", "wait --for=jsonpath={ deploy/web",
}

func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := Parse(line)
		pe := Check(line)
		if err != nil {
			assert.Nil(t, c)
			assert.NotEmpty(t, err.Error())
			if _, help := err.(rootHelpError); help {
				assert.Nil(t, pe, "kubectl alone prints its help")
				return
			}
			require.NotNil(t, pe, "Check agrees with Parse")
			assert.Equal(t, err.Error(), pe.Error())
			assert.NotEmpty(t, pe.Msg)
			assert.NotContains(t, pe.Msg, "\n", "one line")
			assert.True(t, pe.Offset >= -1 && pe.Offset <= len(line), "offset %d in %q", pe.Offset, line)
			return
		}
		assert.Nil(t, pe, "Check agrees with Parse")
		// The normalized line parses back to the same command.
		again, err := Parse(c.String())
		require.NoError(t, err, "%q normalized to %q", line, c.String())
		assert.Equal(t, c.Path, again.Path, c.String())
		assert.Equal(t, c.Args, again.Args, c.String())
		assert.Equal(t, c.Flags, again.Flags, c.String())
		assert.Equal(t, c.String(), again.String())
		_ = c.Mutates()
	})
}

func FuzzRun(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		fx := newFixture(t)
		fx.files["web.json"] = webManifest
		fx.env.Stdin = strings.NewReader(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"stdin"}}`)
		rv := fx.st.ResourceVersion()
		r := Run(fx.env, line)
		changed := fx.st.ResourceVersion() != rv
		assert.Equal(t, changed, r.Mutated, line)
		if !r.OK() && r.Output == "" {
			assert.False(t, changed, "a command that failed without output changed the store: %q", line)
		}
		if c, err := Parse(line); err != nil || !c.Mutates() {
			assert.False(t, changed, "a read-only command changed the store: %q", line)
		}
		assert.Equal(t, r.Output, trimNL(r.Output))
		assert.Equal(t, r.Error, trimNL(r.Error))
		if r.Wait != nil {
			// A command that waits goes on without panicking and ends by
			// its timeout at the latest (168h for a negative one).
			assert.True(t, r.OK(), "only a command that has not failed waits")
			done := false
			for i := 0; i < 3 && !done; i++ {
				fx.st.Clock().Advance(100 * time.Hour)
				p := r.Wait.Clone().Poll(fx.env)
				assert.Equal(t, p.Output, trimNL(p.Output))
				done = p.Done
			}
		}
	})
}
