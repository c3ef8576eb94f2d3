package kubectl

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"converge/core/api"
	"converge/core/store"
)

// mutationInfos resolves the objects a changing command works on: named
// objects, or whole types narrowed by -l or taken with --all. Lookups that
// fail come back as errors next to the objects found.
func (x *execCtx) mutationInfos(args []string) ([]info, []error, error) {
	c := x.cmd
	all := c.flagSpec("all") != nil && c.boolean("all")
	if all && c.str("selector") != "" {
		return nil, nil, &plainError{msg: msgAllAndSelector}
	}
	targets, named, err := x.targetsFromArgsOrFiles(args)
	if err != nil {
		return nil, nil, err
	}
	sel, err := x.selector()
	if err != nil {
		return nil, nil, err
	}
	hasSelector := c.str("selector") != "" || all
	if named && hasSelector {
		return nil, nil, &plainError{msg: msgNameWithSelector}
	}
	if !named && !hasSelector {
		return nil, nil, &plainError{msg: msgNoNameSpecified}
	}
	infos, errs := x.visit(targets, sel, false)
	return infos, errs, nil
}

// runScale is `kubectl scale --replicas=N`.
func runScale(x *execCtx) error {
	c := x.cmd
	replicas := c.integer("replicas")
	if replicas < 0 {
		return &plainError{msg: msgScaleNegative}
	}
	infos, errs, err := x.mutationInfos(c.Args)
	if err != nil {
		return err
	}
	if len(infos) == 0 && len(errs) == 0 {
		return &plainError{msg: msgNoObjectsScale}
	}
	if c.str("resource-version") != "" && len(infos) > 1 {
		return &plainError{msg: "cannot use --resource-version with multiple resources"}
	}
	current := c.integer("current-replicas")
	for _, in := range infos {
		if err := x.scaleOne(in, replicas, current); err != nil {
			errs = append(errs, err)
			continue
		}
	}
	return newAggregate(errs)
}

// scaleOne scales one object to replicas, which may be beyond int32 (the
// flag is an int, as kubectl's): beyond the simulation's limit it is
// refused with the value as given, not as narrowed to int32.
func (x *execCtx) scaleOne(in info, replicas, current int64) error {
	var next api.Object
	var have int32
	switch o := in.obj.(type) {
	case *api.Deployment:
		d := o.DeepCopy()
		have = api.Deref(d.Spec.Replicas, 1)
		d.Spec.Replicas = api.Int32(int32(min(replicas, store.MaxReplicas)))
		next = d
	case *api.ReplicaSet:
		rs := o.DeepCopy()
		have = api.Deref(rs.Spec.Replicas, 1)
		rs.Spec.Replicas = api.Int32(int32(min(replicas, store.MaxReplicas)))
		next = rs
	default:
		return &store.StatusError{Reason: store.ReasonNotFound, Message: msgNotFoundResource}
	}
	if current >= 0 && int64(have) != current {
		return &plainError{msg: fmt.Sprintf(msgScalePrecondition, current, have)}
	}
	m := next.GetObjectMeta()
	if replicas > store.MaxReplicas {
		return store.TooManyReplicas(api.KindOf(next), m.Name, replicas)
	}
	updated, err := x.st.UpdateScale(in.rt.Kind, m.Namespace, m.Name, int32(replicas), x.cmd.str("resource-version"))
	if err != nil {
		return err
	}
	x.printObject(in.rt, updated, "scaled")
	return nil
}

// podSpecOf returns the pod spec a command edits: a pod's own, or the pod
// template's of a Deployment or ReplicaSet.
func podSpecOf(obj api.Object) (*api.PodSpec, bool) {
	switch o := obj.(type) {
	case *api.Deployment:
		return &o.Spec.Template.Spec, true
	case *api.ReplicaSet:
		return &o.Spec.Template.Spec, true
	case *api.Pod:
		return &o.Spec, true
	}
	return nil, false
}

// goTypeName is how kubectl's %T prints an object type in errors.
func goTypeName(rt *resourceType) string { return "*v1." + rt.Kind }

// runSetImage is `kubectl set image TYPE/NAME CONTAINER=IMAGE...`.
func runSetImage(x *execCtx) error {
	resources, pairs, err := splitPairs(x.cmd.Args, "image")
	if err != nil {
		return err
	}
	images, order, _, err := parsePairs(pairs, "image", false)
	if err != nil {
		return err
	}
	var verrs []error
	if len(resources) == 0 && len(x.cmd.list("filename")) == 0 {
		verrs = append(verrs, &plainError{msg: msgOneOrMoreResources})
	}
	if len(images) == 0 {
		verrs = append(verrs, &plainError{msg: msgNoImageUpdate})
	} else if _, wild := images["*"]; wild && len(images) > 1 {
		verrs = append(verrs, &plainError{msg: msgWildcardImage})
	}
	if len(verrs) > 0 {
		return newAggregate(verrs)
	}
	infos, errs, err := x.mutationInfos(resources)
	if err != nil {
		return err
	}
	for _, in := range infos {
		next := in.obj.DeepCopyObject()
		spec, ok := podSpecOf(next)
		if !ok {
			errs = append(errs, &plainError{msg: fmt.Sprintf(msgNotPodSpecObject, in.rt.Plural+"/"+in.name(), goTypeName(in.rt))})
			continue
		}
		for _, name := range order {
			found := setImage(spec.InitContainers, name, images[name])
			found = setImage(spec.Containers, name, images[name]) || found
			if !found {
				errs = append(errs, &plainError{msg: fmt.Sprintf(msgNoContainerNamed, name)})
			}
		}
		if sameJSON(in.obj, next) {
			continue
		}
		updated, err := x.st.Update(next)
		if err != nil {
			errs = append(errs, fmt.Errorf("failed to patch image update to pod template: %v", err))
			continue
		}
		x.printObject(in.rt, updated, "image updated")
	}
	return newAggregate(errs)
}

func setImage(cs []api.Container, name, image string) bool {
	found := false
	for i := range cs {
		if cs[i].Name == name || name == "*" {
			cs[i].Image = image
			found = true
		}
	}
	return found
}

// sameJSON reports whether two objects encode the same.
func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// isEnvName matches `^[-._a-zA-Z][-._a-zA-Z0-9]*$`, kubectl's
// environment variable names (msgEnvKeyFormat).
func isEnvName(k string) bool {
	if k == "" || !isEnvNameChar(k[0]) {
		return false
	}
	return isConfigMapKeyName(k)
}

// isEnvNameChar is a letter, '-', '.' or '_'.
func isEnvNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '.' || c == '_'
}

// parseEnv is envutil.ParseEnv for KEY=VALUE and KEY- arguments.
func parseEnv(specs []string) ([]api.EnvVar, []string, error) {
	var env []api.EnvVar
	var remove []string
	exists := map[string]bool{}
	for _, s := range specs {
		switch {
		case strings.Contains(s, "="):
			k, v, _ := strings.Cut(s, "=")
			if !isEnvName(k) {
				return nil, nil, &plainError{msg: fmt.Sprintf(msgEnvKeyInvalid, k, msgEnvKeyFormat)}
			}
			exists[k] = true
			env = append(env, api.EnvVar{Name: k, Value: v})
		case strings.HasSuffix(s, "-"):
			remove = append(remove, s[:len(s)-1])
		default:
			return nil, nil, &plainError{msg: fmt.Sprintf(msgEnvUnknown, s)}
		}
	}
	for _, r := range remove {
		if exists[r] {
			return nil, nil, &plainError{msg: msgEnvModifyRemove}
		}
	}
	return env, remove, nil
}

// updateEnv replaces variables in place, appends new ones and drops removed
// ones, as set env does.
func updateEnv(existing, env []api.EnvVar, remove []string) []api.EnvVar {
	covered := map[string]bool{}
	for _, r := range remove {
		covered[r] = true
	}
	find := func(name string) (api.EnvVar, bool) {
		for i := len(env) - 1; i >= 0; i-- {
			if env[i].Name == name {
				return env[i], true
			}
		}
		return api.EnvVar{}, false
	}
	var out []api.EnvVar
	for _, e := range existing {
		if covered[e.Name] {
			continue
		}
		if newer, ok := find(e.Name); ok {
			covered[e.Name] = true
			out = append(out, newer)
			continue
		}
		out = append(out, e)
	}
	for _, e := range env {
		if covered[e.Name] {
			continue
		}
		covered[e.Name] = true
		out = append(out, e)
	}
	return out
}

// runSetEnv is `kubectl set env TYPE/NAME KEY=VALUE... [KEY-]`.
func runSetEnv(x *execCtx) error {
	c := x.cmd
	if c.str("from") != "" {
		return &plainError{msg: msgEnvFromUnsupported}
	}
	resources, envArgs := splitEnv(c.Args)
	if len(c.list("filename")) == 0 && len(resources) == 0 {
		return &plainError{msg: msgOneOrMoreResources}
	}
	env, remove, err := parseEnv(append(c.list("env"), envArgs...))
	if err != nil {
		return err
	}
	if prefix := c.str("prefix"); prefix != "" {
		for i := range env {
			env[i].Name = prefix + env[i].Name
		}
	}
	infos, errs, err := x.mutationInfos(resources)
	if err != nil {
		return err
	}
	for _, in := range infos {
		next := in.obj.DeepCopyObject()
		spec, ok := podSpecOf(next)
		if !ok {
			errs = append(errs, &plainError{msg: fmt.Sprintf(msgNotPodSpecObject, in.rt.Plural+"/"+in.name(), goTypeName(in.rt))})
			continue
		}
		matched := 0
		var ferr error
		for i := range spec.Containers {
			ct := &spec.Containers[i]
			if ok, _ := path.Match(c.str("containers"), ct.Name); !ok {
				continue
			}
			matched++
			if !c.boolean("overwrite") {
				if err := envNoOverwrites(ct.Env, env); err != nil {
					ferr = err
					break
				}
			}
			ct.Env = updateEnv(ct.Env, env, remove)
		}
		if ferr != nil {
			errs = append(errs, &plainError{msg: fmt.Sprintf("%s %v", in.rt.Plural+"/"+in.name(), ferr)})
			continue
		}
		if matched == 0 {
			x.printf(msgEnvNoContainers+"\n", in.rt.Kind, in.name(), c.str("containers"))
			continue
		}
		if c.boolean("list") {
			x.listEnv(in, spec)
			continue
		}
		if sameJSON(in.obj, next) {
			continue
		}
		updated, err := x.st.Update(next)
		if err != nil {
			errs = append(errs, fmt.Errorf("failed to patch env update to pod template: %v", err))
			continue
		}
		if len(env) == 0 && len(envArgs) == 0 {
			return &plainError{msg: msgEnvRequired}
		}
		x.printObject(in.rt, updated, "env updated")
	}
	return newAggregate(errs)
}

// splitEnv is envutil.SplitEnvironmentFromResources: the arguments up to the
// first KEY=VALUE or KEY- are resources.
func splitEnv(args []string) (resources, env []string) {
	for i, a := range args {
		if strings.Contains(a, "=") || strings.HasSuffix(a, "-") && a != "-" {
			return args[:i], args[i:]
		}
	}
	return args, nil
}

func envNoOverwrites(existing, env []api.EnvVar) error {
	for _, e := range env {
		for _, old := range existing {
			if old.Name == e.Name && old.Value != e.Value {
				return fmt.Errorf(msgLabelOverwrite, e.Name, old.Value)
			}
		}
	}
	return nil
}

// listEnv is set env --list.
func (x *execCtx) listEnv(in info, spec *api.PodSpec) {
	for _, ct := range spec.Containers {
		if ok, _ := path.Match(x.cmd.str("containers"), ct.Name); !ok {
			continue
		}
		x.printf("# %s %s, container %s\n", in.rt.Kind, in.name(), ct.Name)
		for _, e := range ct.Env {
			if len(e.ValueFrom) == 0 {
				x.printf("%s=%s\n", e.Name, e.Value)
				continue
			}
			x.printf("# %s from %s\n", e.Name, string(e.ValueFrom))
		}
	}
}
