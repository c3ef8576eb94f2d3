package kubectl

import "fmt"

// notSimulated are kubectl's own commands that Converge does not simulate,
// each with why, in one line: the simulated cluster runs no containers and
// has no network, kubeconfig or plugins. A line that starts with one is
// answered with msgNotSimulated instead of cobra's "unknown command",
// which would read as a typo (docs/cli.md lists them).
var notSimulated = map[string]string{
	"logs":         "no container runs here, so there are no logs to read",
	"exec":         "no container runs here, so there is nothing to exec into",
	"attach":       "no container runs here, so there is nothing to attach to",
	"cp":           "no container runs here, so there are no files to copy",
	"debug":        "no container runs here, so there is nothing to debug",
	"port-forward": "the simulated cluster has no network to forward from",
	"proxy":        "the simulated cluster has no network to proxy",
	"run":          "use kubectl create deployment NAME --image=IMAGE",
	"expose":       "write the Service in the scenario's objects instead",
	"edit":         "there is no editor behind the console: use patch, set, scale or the page's editor",
	"replace":      "use kubectl apply -f",
	"explain":      "the API's documentation is not part of the simulation",
	"events":       "the page's Events tab lists them (kubectl get events also works)",
	"cluster-info": "the simulated cluster has no endpoints to show",
	"config":       "there is no kubeconfig: the console talks to the one simulated cluster",
	"auth":         "the simulated API server has no authorization",
	"certificate":  "the simulated API server has no certificates",
	"kustomize":    "use kubectl apply -f with the manifests",
	"plugin":       "there are no plugins",
	"completion":   "the console completes with Tab",
	"options":      "see kubectl --help",
	"diff":         "the page's editor shows what a change does",
	"alpha":        "no alpha commands are simulated",
	"certificates": "the simulated API server has no certificates",
	"api-versions": "use kubectl api-resources",
}

// msgNotSimulated names a real kubectl command the subset leaves out.
const msgNotSimulated = "%q is a kubectl command that Converge does not simulate: %s"

// notSimulatedError is the answer to a command of notSimulated, or nil.
func notSimulatedError(word string, at at) *ParseError {
	why, ok := notSimulated[word]
	if !ok {
		return nil
	}
	msg := fmt.Sprintf(msgNotSimulated, "kubectl "+word, why)
	return &ParseError{Msg: msg, err: &plainError{msg: msg}, at: at}
}
