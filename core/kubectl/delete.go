package kubectl

import (
	"fmt"

	"converge/core/store"
)

// runDelete is `kubectl delete`: objects by name, by -l or --all, with
// kubectl's grace-period rules and cascading strategies.
func runDelete(x *execCtx) error {
	c := x.cmd
	out := c.str("output")
	if out != "" && out != outputName {
		return &plainError{msg: fmt.Sprintf(msgDeleteOutput, out)}
	}
	if c.boolean("all") && c.str("selector") != "" {
		return &plainError{msg: msgDeleteAllSelector}
	}
	policy, err := x.cascade()
	if err != nil {
		return err
	}
	grace, err := x.gracePeriod()
	if err != nil {
		return err
	}
	if c.str("raw") != "" {
		return &plainError{msg: "--raw is not supported in Converge"}
	}
	infos, errs, err := x.mutationInfos(c.Args)
	if err != nil {
		return err
	}
	ignoreNotFound := c.boolean("ignore-not-found") || !c.changed("ignore-not-found") && (c.boolean("all") || c.str("selector") != "")
	if ignoreNotFound {
		errs = dropNotFound(errs)
	}
	warnedCluster := false
	for _, in := range infos {
		if !in.rt.Namespaced && c.changed("namespace") && !warnedCluster {
			x.warn(msgDeleteClusterScoped)
			warnedCluster = true
		}
		m := in.obj.GetObjectMeta()
		opts := store.DeleteOptions{PropagationPolicy: policy}
		if grace >= 0 {
			g := grace
			opts.GracePeriodSeconds = &g
		}
		if err := x.st.Delete(in.rt.Kind, m.Namespace, m.Name, opts); err != nil {
			if ignoreNotFound && isNotFound(err) {
				continue
			}
			errs = append(errs, err)
			continue
		}
		x.printDeleted(in, grace)
	}
	if len(infos) == 0 && len(errs) == 0 {
		x.printf("%s\n", msgDeleteNoResources)
	}
	return newAggregate(errs)
}

// printDeleted is delete's PrintObj: `pod "web-x" deleted from default
// namespace`, "force deleted" with grace period 0.
func (x *execCtx) printDeleted(in info, grace int64) {
	if x.cmd.str("output") == outputName {
		x.printf("%s\n", ref(in.rt, in.name()))
		return
	}
	op := "deleted"
	if grace == 0 {
		op = "force deleted"
	}
	op = x.withDryRun(op)
	if in.rt.Namespaced {
		x.printf("%s %q %s from %s namespace\n", kindString(in.rt), in.name(), op, in.obj.GetObjectMeta().Namespace)
		return
	}
	x.printf("%s %q %s\n", kindString(in.rt), in.name(), op)
}

// cascade is GetCascadingStrategy.
func (x *execCtx) cascade() (string, error) {
	switch v := x.cmd.str("cascade"); v {
	case "background":
		return store.DeletePropagationBackground, nil
	case "orphan":
		return store.DeletePropagationOrphan, nil
	case "foreground":
		return store.DeletePropagationForeground, nil
	case "true":
		x.printf("warning: --cascade=%v is deprecated (boolean value) and can be replaced with --cascade=%s.\n", v, "background")
		return store.DeletePropagationBackground, nil
	case "false":
		x.printf("warning: --cascade=%v is deprecated (boolean value) and can be replaced with --cascade=%s.\n", v, "orphan")
		return store.DeletePropagationOrphan, nil
	default:
		return "", &plainError{msg: fmt.Sprintf(msgDeleteCascade, v)}
	}
}

// gracePeriod is delete's Complete and Validate: --now means 1, 0 without
// --force means 1, --force alone means 0 (with kubectl's warning), and -1
// leaves each pod's own period.
func (x *execCtx) gracePeriod() (int64, error) {
	c := x.cmd
	grace := c.integer("grace-period")
	force := c.boolean("force")
	if c.boolean("now") {
		if grace != -1 {
			return 0, &plainError{msg: msgDeleteNowGrace}
		}
		grace = 1
	}
	if grace == 0 && !force {
		grace = 1
	}
	if force && grace < 0 {
		grace = 0
	}
	switch {
	case grace == 0 && force:
		x.warn(msgDeleteForceWarning)
	case grace > 0 && force:
		return 0, &plainError{msg: msgDeleteForceGrace}
	}
	return grace, nil
}
