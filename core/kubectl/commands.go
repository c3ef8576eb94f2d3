package kubectl

import "converge/core/store"

// cmdSpec is one kubectl command: its words, its flags and what it runs.
type cmdSpec struct {
	path    []string // {"rollout", "undo"}
	aliases []string // other names of the last word ("cm" for "create configmap")
	use     string   // kubectl's usage line, after "kubectl "
	short   string   // kubectl's one-line description
	flags   []flagSpec
	mutates bool
	run     func(x *execCtx) error
	subs    []*cmdSpec // subcommands; a command with subs and no run only groups them
}

// Flags shared by several commands.
var (
	fOutput         = stringF("output", "o", "")
	fSelector       = stringF("selector", "l", "")
	fAll            = boolF("all", "")
	fAllNamespaces  = boolF("all-namespaces", "A")
	fFilename       = sliceF("filename", "f")
	fRecursive      = boolF("recursive", "R")
	fDryRun         = flagSpec{name: "dry-run", kind: stringFlag, def: "none", noOpt: "unchanged"}
	fRecord         = boolF("record", "")
	fFieldManager   = stringF("field-manager", "", store.ManagerKubectl)
	fShowManaged    = boolF("show-managed-fields", "")
	fTemplate       = stringF("template", "", "")
	fAllowMissing   = boolDefF("allow-missing-template-keys", "", "true")
	fOverwrite      = boolF("overwrite", "")
	fResourceVer    = stringF("resource-version", "", "")
	fLocal          = boolF("local", "")
	fGracePeriod    = intF("grace-period", "", 0, "-1")
	fTimeout        = durationF("timeout", "0s")
	fValidate       = flagSpec{name: "validate", kind: stringFlag, def: "strict", noOpt: "strict"}
	printFlags      = []flagSpec{fOutput, fTemplate, fAllowMissing, fShowManaged}
	mutationFlags   = append([]flagSpec{fDryRun, fFieldManager}, printFlags...)
	selectAllFlags  = []flagSpec{fSelector, fAll}
	fileFlags       = []flagSpec{fFilename, fRecursive, stringF("kustomize", "k", "")}
	rolloutFileFlag = append([]flagSpec{}, fileFlags...)
)

// withFieldManager sets the default of --field-manager (each command has
// its own, kubectl-set, kubectl-patch ...), or drops the flag when def is ""
// (kubectl scale has none, and the API server names its writes "kubectl",
// after the user agent).
func withFieldManager(flags []flagSpec, def string) []flagSpec {
	out := make([]flagSpec, 0, len(flags))
	for _, f := range flags {
		if f.name == fFieldManager.name {
			if def == "" {
				continue
			}
			f.def = def
		}
		out = append(out, f)
	}
	return out
}

func join(groups ...[]flagSpec) []flagSpec {
	var out []flagSpec
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// commands is the command tree, in the order `kubectl --help` lists them.
var commands = []*cmdSpec{
	{path: []string{"create"}, use: "create -f FILENAME", short: "Create a resource from a file or from stdin", mutates: true,
		flags: withFieldManager(join(fileFlags, mutationFlags, []flagSpec{fRecord, fValidate, fSelector, boolF("save-config", ""), boolF("edit", ""),
			boolF("windows-line-endings", ""), stringF("raw", "", "")}), "kubectl-create"),
		run: runCreate,
		subs: []*cmdSpec{
			{path: []string{"create", "deployment"}, aliases: []string{"deploy"},
				use:   "create deployment NAME --image=image -- [COMMAND] [args...]",
				short: "Create a deployment with the specified name", mutates: true,
				flags: withFieldManager(join(mutationFlags, []flagSpec{required(sliceF("image", "")), intF("replicas", "r", 32, "1"),
					intF("port", "", 32, "-1"), boolF("save-config", ""), fValidate}), "kubectl-create"),
				run: runCreateDeployment},
			{path: []string{"create", "configmap"}, aliases: []string{"cm"},
				use:   "create configmap NAME [--from-file=[key=]source] [--from-literal=key1=value1] [--dry-run=server|client|none]",
				short: "Create a config map from a local file, directory or literal value", mutates: true,
				flags: withFieldManager(join(mutationFlags, []flagSpec{arrayF("from-literal", ""), sliceF("from-file", ""), sliceF("from-env-file", ""),
					boolF("append-hash", ""), boolF("save-config", ""), fValidate}), "kubectl-create"),
				run: runCreateConfigMap},
		}},
	{path: []string{"get"}, use: "get [(-o|--output=)json|yaml|name|go-template|go-template-file|template|templatefile|jsonpath|jsonpath-as-json|jsonpath-file|custom-columns|custom-columns-file|wide] (TYPE[.VERSION][.GROUP] [NAME | -l label] | TYPE[.VERSION][.GROUP]/NAME ...) [flags]",
		short: "Display one or many resources",
		flags: join(fileFlags, printFlags, []flagSpec{fSelector, fAllNamespaces, boolF("show-labels", ""), boolF("no-headers", ""),
			sliceF("label-columns", "L"), boolF("show-kind", ""), boolF("ignore-not-found", ""), stringF("sort-by", "", ""),
			stringF("field-selector", "", ""), intF("chunk-size", "", 64, "500"), boolF("watch", "w"), boolF("watch-only", "")}),
		run: runGet},
	{path: []string{"describe"}, use: "describe (-f FILENAME | TYPE [NAME_PREFIX | -l label] | TYPE/NAME)",
		short: "Show details of a specific resource or group of resources",
		flags: join(fileFlags, []flagSpec{fSelector, fAllNamespaces, boolDefF("show-events", "", "true"), intF("chunk-size", "", 64, "500")}),
		run:   runDescribe},
	{path: []string{"apply"}, use: "apply (-f FILENAME | -k DIRECTORY)", short: "Apply a configuration to a resource by file name or stdin", mutates: true,
		flags: withFieldManager(join(fileFlags, mutationFlags, []flagSpec{fRecord, fValidate, fOverwrite, fSelector, boolF("force", ""), fGracePeriod,
			fTimeout, boolF("wait", ""), boolF("prune", ""), boolF("server-side", ""), boolF("force-conflicts", "")}), "kubectl-client-side-apply"),
		run: runApply},
	{path: []string{"patch"}, use: "patch (-f FILENAME | TYPE NAME) [-p PATCH|--patch-file FILE]",
		short: "Update fields of a resource", mutates: true,
		flags: withFieldManager(join(fileFlags, mutationFlags, []flagSpec{stringF("patch", "p", ""), stringF("patch-file", "", ""),
			stringF("type", "", "strategic"), fLocal, fRecord, stringF("subresource", "", "")}), "kubectl-patch"),
		run: runPatch},
	{path: []string{"label"}, use: "label [--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version]",
		short: "Update the labels on a resource", mutates: true,
		flags: withFieldManager(join(fileFlags, mutationFlags, selectAllFlags, []flagSpec{fOverwrite, fResourceVer, fLocal, boolF("list", ""),
			fAllNamespaces, stringF("field-selector", "", ""), fRecord}), "kubectl-label"),
		run: runLabel},
	{path: []string{"annotate"}, use: "annotate [--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version]",
		short: "Update the annotations on a resource", mutates: true,
		flags: withFieldManager(join(fileFlags, mutationFlags, selectAllFlags, []flagSpec{fOverwrite, fResourceVer, fLocal, boolF("list", ""),
			fAllNamespaces, stringF("field-selector", "", ""), fRecord}), "kubectl-annotate"),
		run: runAnnotate},
	{path: []string{"scale"}, use: "scale [--resource-version=version] [--current-replicas=count] --replicas=COUNT (-f FILENAME | TYPE NAME)",
		short: "Set a new size for a deployment, replica set, replication controller, or stateful set", mutates: true,
		flags: withFieldManager(join(fileFlags, mutationFlags, selectAllFlags, []flagSpec{required(intF("replicas", "", 0, "0")),
			intF("current-replicas", "", 0, "-1"), fResourceVer, fTimeout, fRecord}), ""),
		run: runScale},
	{path: []string{"autoscale"}, use: "autoscale (-f FILENAME | TYPE NAME | TYPE/NAME) [--min=MINPODS] --max=MAXPODS [--cpu=CPU] [--memory=MEMORY]",
		short: "Auto-scale a deployment, replica set, stateful set, or replication controller", mutates: true,
		flags: withFieldManager(join(fileFlags, mutationFlags, []flagSpec{fRecord, intF("min", "", 32, "-1"), required(intF("max", "", 32, "-1")),
			intF("cpu-percent", "", 32, "-1"), stringF("cpu", "", ""), stringF("memory", "", ""), stringF("name", "", ""),
			boolF("save-config", "")}), "kubectl-autoscale"),
		run: runAutoscale},
	{path: []string{"set"}, use: "set SUBCOMMAND", short: "Set specific features on objects",
		subs: []*cmdSpec{
			{path: []string{"set", "image"}, use: "set image (-f FILENAME | TYPE NAME) CONTAINER_NAME_1=CONTAINER_IMAGE_1 ... CONTAINER_NAME_N=CONTAINER_IMAGE_N",
				short: "Update the image of a pod template", mutates: true,
				flags: withFieldManager(join(fileFlags, mutationFlags, selectAllFlags, []flagSpec{fLocal, fRecord}), "kubectl-set"),
				run:   runSetImage},
			{path: []string{"set", "env"}, use: "set env RESOURCE/NAME KEY_1=VAL_1 ... KEY_N=VAL_N",
				short: "Update environment variables on a pod template", mutates: true,
				flags: withFieldManager(join(fileFlags, mutationFlags, selectAllFlags, []flagSpec{arrayF("env", "e"), stringF("containers", "c", "*"),
					boolDefF("overwrite", "", "true"), boolF("list", ""), boolF("resolve", ""), stringF("from", "", ""),
					stringF("prefix", "", ""), sliceF("keys", ""), fLocal}), "kubectl-set"),
				run: runSetEnv},
		}},
	{path: []string{"rollout"}, use: "rollout SUBCOMMAND", short: "Manage the rollout of a resource",
		subs: []*cmdSpec{
			{path: []string{"rollout", "history"}, use: "history (TYPE NAME | TYPE/NAME) [flags]", short: "View rollout history",
				flags: join(rolloutFileFlag, printFlags, []flagSpec{intF("revision", "", 64, "0")}), run: runRolloutHistory},
			{path: []string{"rollout", "pause"}, use: "pause RESOURCE", short: "Mark the provided resource as paused", mutates: true,
				flags: withFieldManager(join(rolloutFileFlag, printFlags, []flagSpec{fFieldManager}), "kubectl-rollout"), run: runRolloutPause},
			{path: []string{"rollout", "restart"}, use: "restart RESOURCE", short: "Restart a resource", mutates: true,
				flags: withFieldManager(join(rolloutFileFlag, printFlags, []flagSpec{fFieldManager, fSelector}), "kubectl-rollout"), run: runRolloutRestart},
			{path: []string{"rollout", "resume"}, use: "resume RESOURCE", short: "Resume a paused resource", mutates: true,
				flags: withFieldManager(join(rolloutFileFlag, printFlags, []flagSpec{fFieldManager}), "kubectl-rollout"), run: runRolloutResume},
			{path: []string{"rollout", "status"}, use: "status (TYPE NAME | TYPE/NAME) [flags]", short: "Show the status of the rollout",
				flags: join(rolloutFileFlag, []flagSpec{boolDefF("watch", "w", "true"), intF("revision", "", 64, "0"), fTimeout, fSelector}),
				run:   runRolloutStatus},
			{path: []string{"rollout", "undo"}, use: "undo (TYPE NAME | TYPE/NAME) [flags]", short: "Undo a previous rollout", mutates: true,
				flags: join(rolloutFileFlag, printFlags, []flagSpec{intF("to-revision", "", 64, "0"), fDryRun}), run: runRolloutUndo},
		}},
	{path: []string{"delete"}, use: "delete ([-f FILENAME] | [-k DIRECTORY] | TYPE [(NAME | -l label | --all)])",
		short: "Delete resources by file names, stdin, resources and names, or by resources and label selector", mutates: true,
		flags: join(fileFlags, selectAllFlags, []flagSpec{fDryRun, fOutput, fAllNamespaces, flagSpec{name: "cascade", kind: stringFlag, def: "background", noOpt: "background"},
			fGracePeriod, boolF("force", ""), boolF("now", ""), boolF("ignore-not-found", ""), boolDefF("wait", "", "true"),
			fTimeout, stringF("field-selector", "", ""), stringF("raw", "", ""), boolF("interactive", "i")}),
		run: runDelete},
	{path: []string{"cordon"}, use: "cordon NODE", short: "Mark node as unschedulable", mutates: true,
		flags: []flagSpec{fSelector, fDryRun}, run: runCordon},
	{path: []string{"uncordon"}, use: "uncordon NODE", short: "Mark node as schedulable", mutates: true,
		flags: []flagSpec{fSelector, fDryRun}, run: runUncordon},
	{path: []string{"drain"}, use: "drain NODE", short: "Drain node in preparation for maintenance", mutates: true,
		flags: []flagSpec{boolF("force", ""), boolF("ignore-daemonsets", ""), boolF("delete-emptydir-data", ""),
			boolF("delete-local-data", ""), fGracePeriod, fTimeout, fSelector, stringF("pod-selector", "", ""),
			boolF("disable-eviction", ""), intF("skip-wait-for-delete-timeout", "", 0, "0"), intF("chunk-size", "", 64, "500"), fDryRun},
		run: runDrain},
	{path: []string{"taint"}, use: "taint NODE NAME KEY_1=VAL_1:TAINT_EFFECT_1 ... KEY_N=VAL_N:TAINT_EFFECT_N",
		short: "Update the taints on one or more nodes", mutates: true,
		flags: join(printFlags, []flagSpec{fDryRun, fValidate, fSelector, fOverwrite, boolF("all", ""), stringF("field-manager", "", "kubectl-taint")}),
		run:   runTaint},
	{path: []string{"wait"}, use: "wait ([-f FILENAME] | resource.group/resource.name | resource.group [(-l label | --all)]) [--for=create|--for=delete|--for condition=available|--for=jsonpath='{}'[=value]]",
		short: "Wait for a specific condition on one or many resources",
		flags: join(fileFlags, printFlags, []flagSpec{arrayF("for", ""), durationF("timeout", "30s"), fSelector, fAll, fAllNamespaces,
			stringF("field-selector", "", ""), fLocal}),
		run: runWait},
	{path: []string{"top"}, use: "top", short: "Display resource (CPU/memory) usage",
		subs: []*cmdSpec{
			{path: []string{"top", "pod"}, aliases: []string{"pods", "po"}, use: "pod [NAME | -l label]", short: "Display resource (CPU/memory) usage of pods",
				flags: []flagSpec{fSelector, fAllNamespaces, stringF("field-selector", "", ""), boolF("containers", ""), boolF("no-headers", ""),
					stringF("sort-by", "", ""), boolF("sum", ""), boolF("show-swap", ""), boolDefF("use-protocol-buffers", "", "true")},
				run: runTopPod},
			{path: []string{"top", "node"}, aliases: []string{"nodes", "no"}, use: "node [NAME | -l label]", short: "Display resource (CPU/memory) usage of nodes",
				flags: []flagSpec{fSelector, boolF("no-headers", ""), stringF("sort-by", "", ""), boolF("show-capacity", ""), boolF("show-swap", ""),
					boolDefF("use-protocol-buffers", "", "true")},
				run: runTopNode},
		}},
	{path: []string{"api-resources"}, use: "api-resources", short: "Print the supported API resources on the server",
		flags: []flagSpec{fOutput, boolDefF("namespaced", "", "true"), boolF("no-headers", ""), stringF("api-group", "", ""),
			sliceF("verbs", ""), stringF("sort-by", "", ""), boolDefF("cached", "", "false")},
		run: runAPIResources},
	{path: []string{"version"}, use: "version", short: "Print the client and server version information",
		flags: []flagSpec{boolF("client", ""), fOutput}, run: runVersion},
}

// findCommand returns the top-level command named word.
func findCommand(cmds []*cmdSpec, word string) *cmdSpec {
	for _, c := range cmds {
		if c.path[len(c.path)-1] == word {
			return c
		}
		for _, a := range c.aliases {
			if a == word {
				return c
			}
		}
	}
	return nil
}
