package kubectl

// Every text a user sees, in one place. Format strings take their arguments
// in the order kubectl passes them. Sources are kubectl's (pkg/cmd/...,
// pkg/polymorphichelpers, pkg/describe, pkg/drain, cli-runtime), cobra's
// and pflag's, as of kubectl 1.35.

// KubernetesVersion is the version Converge's simulated cluster and kubectl
// report (`kubectl version`, the nodes' kubelet version).
const KubernetesVersion = "v1.35.0"

// Shell-level errors of Split (kubectl never sees such a line; these are ours).
const (
	msgUnterminatedSingleQuote = "unterminated single-quoted string"
	msgUnterminatedDoubleQuote = "unterminated double-quoted string"
	msgTrailingBackslash       = "the line ends with an unescaped backslash"
	msgPipe                    = "pipes (|) are not supported: the console runs one kubectl command and no other program " +
		"(pick fields with -o jsonpath=... or -o custom-columns=..., filter with -l or --field-selector)"
	msgNoStore = "no cluster to run against"
	// msgNeedsSubcommand sums up, on one line, the help a group command
	// alone prints (kubectl rollout): a scenario's problem list needs one.
	msgNeedsSubcommand = "%s needs a subcommand: %s"
)

// cobra and pflag.
const (
	msgUnknownCommand      = "unknown command %q for %q"
	msgUnknownSubcommand   = "unknown command %q"
	msgUnknownFlag         = "unknown flag: --%s"
	msgUnknownShorthand    = "unknown shorthand flag: %q in %s"
	msgBadFlagSyntax       = "bad flag syntax: %s"
	msgFlagNeedsArgument   = "flag needs an argument: --%s"
	msgShortNeedsArgument  = "flag needs an argument: %q in %s"
	msgInvalidFlagArgument = "invalid argument %q for %q flag: %v"
	msgRequiredFlags       = `required flag(s) "%s" not set`
	msgFlagErrorFormat     = "%s\nSee '%s --help' for usage."
	msgUsageErrorFormat    = "%s\nSee '%s -h' for help and examples"
)

// cmdutil.CheckErr and the API server's status texts.
const (
	msgErrorFromServer       = "Error from server: %s"
	msgErrorFromServerReason = "Error from server (%s): %s"
	msgInvalidPrefix         = "The %s %q is invalid"
	msgErrorWhen             = "error when %s %q: %s"
	msgWarning               = "Warning: %s"
	// msgEndpointsDeprecated is the API server's warning on every request
	// for v1 Endpoints since Kubernetes 1.33.
	msgEndpointsDeprecated = "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"
	msgNotFoundResource    = "the server could not find the requested resource"
)

// The resource builder (cli-runtime).
const (
	msgNoResources          = "you must provide one or more resources by argument or filename (.json|.yaml|.yml)"
	msgNoNeedForType        = "there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'"
	msgResourceNameForm     = "arguments in resource/name form must have a single resource and name"
	msgNoResourceType       = "the server doesn't have a resource type %q"
	msgResourcesBeforePairs = "all resources must be specified before %s changes: %s"
	msgInvalidPairFormat    = "invalid %s format: %s"
	msgOneOrMoreResources   = "one or more resources must be specified as <resource> <name> or <resource>/<name>"
	msgRequiredResource     = "required resource not specified"
	msgPathNotExist         = "the path %q does not exist"
	msgNoObjectsApply       = "no objects passed to apply"
	msgNoObjectsCreate      = "no objects passed to create"
	msgNoObjectsScale       = "no objects passed to scale"
	msgAllAndSelector       = "cannot set --all and --selector at the same time"
	msgUnexpectedOutput     = "unable to match a printer suitable for the output format %q, allowed formats are: json,name,yaml"
	msgDryRunInvalid        = `Invalid dry-run value (%v). Must be "none", "server", or "client".`
)

// get and describe.
const (
	msgNoResourcesFound   = "No resources found in %s namespace."
	msgNoResourcesFoundNS = "No resources found"
	msgGetNoType          = "You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse \"kubectl explain <resource>\" for a detailed description of that resource (e.g. kubectl explain pods).\nSee 'kubectl get -h' for help and examples"
	msgDescribeNoType     = "You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.\n\nerror: Required resource not specified.\nSee 'kubectl describe -h' for help and examples"
	msgNoDescriber        = "no description has been implemented for %s"
)

// apply and create.
const (
	msgApplyMissingAnnotation = "resource %s is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically."
	msgServerSideUnsupported  = "--server-side is not supported in Converge; kubectl apply here is client-side apply"
	msgCreateMustSpecify      = "must specify one of -f and -k"
	msgExactlyOneName         = "exactly one NAME is required, got %d"
	msgFailedCreate           = "failed to create %s: %v"
	msgMultipleImagesCommand  = "cannot specify multiple --image options and command"
	msgInvalidLiteral         = "invalid literal source %v, expected key=value"
	msgConfigMapKeyInvalid    = "%q is not a valid key name for a ConfigMap: %s"
	msgConfigMapKeyDuplicate  = "cannot add key %q, another key by that name already exists in Data for ConfigMap %q"
	msgConfigMapKeyFormat     = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"
	msgConfigMapKeyTooLong    = "must be no more than 253 characters"
	msgFromFileUnsupported    = "--from-file and --from-env-file read local files, which Converge cannot do; use --from-literal"
)

// scale.
const (
	msgScaleNegative     = "The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0"
	msgScalePrecondition = "Expected replicas to be %d, was %d"
	msgScaleUnsupported  = "no scaler has been implemented for %q"
)

// set image and set env.
const (
	msgNoImageUpdate      = "at least one image update is required"
	msgWildcardImage      = "all containers are already specified by *, but saw more than one container_name=container_image pairs"
	msgNoContainerNamed   = "error: unable to find container named %q"
	msgNotPodSpecObject   = "error: %s the object is not a pod or does not have a pod template: %s"
	msgEnvBeforeResource  = "all resources must be specified before environment changes: %s"
	msgEnvInvalid         = "invalid environment variable: %v"
	msgEnvUnknown         = "unknown environment variable: %v"
	msgEnvKeyInvalid      = "%q is not a valid key name: %s"
	msgEnvKeyFormat       = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')"
	msgEnvModifyRemove    = "can not both modify and remove the same environment variable in the same command"
	msgEnvRequired        = "at least one environment variable must be provided"
	msgEnvNoContainers    = "warning: %s/%s does not have any containers matching %q"
	msgEnvFromUnsupported = "--from is not supported in Converge"
)

// patch.
const (
	msgPatchRequired     = "must specify --patch or --patch-file containing the contents of the patch"
	msgPatchType         = "--type must be one of [json merge strategic], not %q"
	msgPatchParse        = "unable to parse %q: %v"
	msgPatchTooDeep      = "the patch nests more than %d levels down, the limit of a document in Converge (a simulation limit, not a Kubernetes one)"
	msgPatchFileUnsup    = "--patch-file reads a local file, which Converge cannot do; use --patch"
	msgPatchJSONOp       = "Unexpected kind: %s"
	msgPatchJSONPath     = "jsonpatch %s operation does not apply: doc is missing path: %q"
	msgPatchJSONTest     = "testing value %s failed"
	msgPatchJSONNotArray = "json: cannot unmarshal object into Go value of type jsonpatch.Patch"
)

// label and annotate.
const (
	msgLabelRequired      = "at least one label update is required"
	msgAnnotationRequired = "at least one annotation update is required"
	msgLabelOverwrite     = "'%s' already has a value (%s), and --overwrite is false"
	msgAnnotateOverwrite  = "--overwrite is false but found the following declared annotation(s): %s"
	msgAnnotateHasValue   = "'%s' already has a value (%s)"
	msgLabelModifyRemove  = "can not both modify and remove a label in the same command"
	msgAnnotModifyRemove  = "can not both modify and remove the following annotation(s) in the same command: %s"
	msgInvalidLabelValue  = "invalid label value: %q: %s"
	msgInvalidLabelSpec   = "invalid label spec: %v"
	msgUnknownLabelSpec   = "unknown label spec: %v"
	msgLabelNotFound      = "label %q not found."
	msgListAndOutput      = "--list and --output may not be specified together"
	msgResourceVersionOne = "--resource-version may only be used with a single resource"
)

// rollout.
const (
	msgRevisionPositive      = "revision must be a positive integer: %v"
	msgNoStatusViewer        = "no status viewer has been implemented for %s"
	msgNoHistoryViewer       = "no history viewer has been implemented for %q"
	msgNoRollbacker          = "no rollbacker has been implemented for %q"
	msgStatusOneResource     = "rollout status is only supported on individual resources and resource collections - %d resources were found"
	msgDesiredRevision       = "desired revision (%d) is different from the running revision (%d)"
	msgDeadlineExceeded      = "deployment %q exceeded its progress deadline"
	msgWaitingObserved       = "Waiting for deployment spec update to be observed..."
	msgWaitingUpdated        = "Waiting for deployment %q rollout to finish: %d out of %d new replicas have been updated..."
	msgWaitingOld            = "Waiting for deployment %q rollout to finish: %d old replicas are pending termination..."
	msgWaitingAvailable      = "Waiting for deployment %q rollout to finish: %d of %d updated replicas are available..."
	msgRolledOut             = "deployment %q successfully rolled out"
	msgNoRolloutHistory      = "No rollout history found."
	msgHistoryRevisionNF     = "unable to find the specified revision"
	msgHistoryWithRevision   = "with revision #%d"
	msgRevisionNotFound      = "unable to find specified revision %v in history"
	msgNoRolloutHistoryFor   = "no rollout history found for deployment %q"
	msgRollbackPaused        = "you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again"
	msgRollbackSkipped       = "skipped rollback (current template already matches revision %d)"
	msgRolledBack            = "rolled back"
	msgAlreadyPaused         = "is already paused"
	msgNotPaused             = "is not paused"
	msgPausingUnsupported    = "pausing is not supported"
	msgResumingUnsupported   = "resuming is not supported"
	msgRestartingUnsupported = "restarting is not supported"
	msgRestartPaused         = "can't restart paused deployment (run rollout resume first)"
	msgRestartSameSecond     = "failed to create patch for %v: if restart has already been triggered within the past second, please wait before attempting to trigger another"
	msgRolloutObjectError    = "error: %s %q %v"
)

// delete.
const (
	msgDeleteForceGrace    = "--force and --grace-period greater than 0 cannot be specified together"
	msgDeleteNowGrace      = "--now and --grace-period cannot be specified together"
	msgDeleteForceWarning  = "Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely."
	msgDeleteOutput        = "unexpected -o output mode: %v. We only support '-o name'"
	msgDeleteCascade       = "invalid cascade value (%v). Must be \"background\", \"foreground\", or \"orphan\""
	msgDeleteNoResources   = "No resources found"
	msgDeleteAllSelector   = "cannot set --all and --selector at the same time"
	msgDeleteClusterScoped = "deleting cluster-scoped resources, not scoped to the provided namespace"
)

// cordon, uncordon, drain.
const (
	msgDrainUsage         = "USAGE: %s [flags]"
	msgDrainBoth          = "error: cannot specify both a node name and a --selector option"
	msgDrainExpectedNode  = "error: expected resource of type node, got %q"
	msgDrainUnable        = "error: unable to drain node %q due to error: %s, continuing command..."
	msgDrainPendingNodes  = "There are pending nodes to be drained:"
	msgDrainUnmanaged     = "cannot delete Pods that declare no controller (use --force to override)"
	msgDrainUnmanagedWarn = "deleting Pods that declare no controller"
	msgDrainLocalStorage  = "Pods with local storage (use --delete-emptydir-data to override)"
	msgDrainLocalWarn     = "deleting Pods with local storage"
	msgDrainCannotDelete  = "cannot delete %s: %s"
	msgEvicting           = "evicting pod %s/%s"
	msgEvictingDryRun     = "evicting pod %s/%s (dry run)"
	msgEvictingServerDry  = "evicting pod %s/%s (server dry run)"
	msgEvictRetry         = "error when evicting pods/%q -n %q (will retry after 5s): %v"
	msgEvictFailed        = "error when evicting pods/%q -n %q: %v"
	msgEvictTimeout       = "error when evicting pods/%q -n %q: global timeout reached: %v"
	msgDrainWaitFailed    = "error when waiting for pod %q in namespace %q to terminate: %v"
	msgDrainSkipPod       = "pod %q has DeletionTimestamp older than %v seconds, skipping"
	msgDrainPendingPods   = "There are pending pods in node %q when an error occurred: %v"
	// msgDrainNoWait is Converge's own line where a server dry run's drain
	// would go on retrying against a cluster the dry run does not change.
	msgDrainNoWait        = "Converge: kubectl drain --dry-run=server would retry these evictions every 5s until the disruption budget allows them (or --timeout); a dry run does not change the cluster, so drain stops here"
	msgPodSelectorInvalid = "--pod-selector=<pod_selector> must be a valid label selector"
)

// Resource builder texts for commands that change objects.
const (
	msgNoNameSpecified   = "resource(s) were provided, but no name was specified"
	msgNamespaceMismatch = "the namespace from the provided object %q does not match the namespace %q. You must pass '--namespace=%s' to perform this operation."
)

// version.
const (
	msgClientVersion    = "Client Version: %s"
	msgKustomizeVersion = "Kustomize Version: %s"
	msgServerVersion    = "Server Version: %s"
	// kustomizeVersion is the kustomize kubectl 1.35 embeds.
	kustomizeVersion    = "v5.7.1"
	msgVersionOutputBad = "--output must be 'yaml' or 'json'"
)

// api-resources.
const (
	msgAPIResourcesOutputBad = "--output %v is not available"
	msgAPIResourcesSortBad   = "--sort-by accepts only name or kind"
	msgAPIResourcesArgs      = "unexpected arguments: %v"
)
