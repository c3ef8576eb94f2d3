package kubectl

import (
	"fmt"
	"strings"

	"converge/core/api"
	"converge/core/validation"
)

// runCreate is `kubectl create -f FILE`.
func runCreate(x *execCtx) error {
	c := x.cmd
	files := c.list("filename")
	if len(files) == 0 {
		if len(c.Args) > 0 {
			return &usageError{path: c.path(), msg: fmt.Sprintf(msgUnknownSubcommand, strings.Join(c.Args, " "))}
		}
		return &plainError{text: "Error: " + msgCreateMustSpecify + "\n\n" + helpText(c.spec)}
	}
	if err := checkOutput(c.str("output"), false); err != nil {
		return err
	}
	objs, sources, err := x.readManifests(files)
	if err != nil {
		return err
	}
	if len(objs) == 0 {
		return &plainError{msg: msgNoObjectsCreate}
	}
	var errs []error
	for i, o := range objs {
		obj := o.DeepCopyObject()
		rt := api.ResourceOf(obj)
		if rt == nil {
			errs = append(errs, &plainError{msg: fmt.Sprintf(msgNoResourceType, strings.ToLower(obj.GetTypeMeta().Kind))})
			continue
		}
		if err := x.setNamespace(rt, obj); err != nil {
			errs = append(errs, err)
			continue
		}
		if c.boolean("save-config") {
			if err := saveConfig(obj); err != nil {
				errs = append(errs, err)
				continue
			}
		}
		clearStatus(obj)
		created, err := x.create(obj)
		if err != nil {
			errs = append(errs, withSource("creating", sources[i], err))
			continue
		}
		x.printObject(rt, created, "created")
	}
	return newAggregate(errs)
}

// create creates obj in the store and prints the warnings the API server
// sends back with it, as kubectl does ("Warning: metadata.name: ... a DNS
// label is recommended", validation.Warnings), before the command's own
// output.
func (x *execCtx) create(obj api.Object) (api.Object, error) {
	created, err := x.st.Create(obj)
	if err != nil {
		return nil, err
	}
	for _, w := range validation.Warnings(created) {
		x.warn(w)
	}
	return created, nil
}

// saveConfig is --save-config: the object's configuration in its
// last-applied-configuration annotation.
func saveConfig(obj api.Object) error {
	_, lastApplied, err := modifiedConfiguration(obj)
	if err != nil {
		return err
	}
	m := obj.GetObjectMeta()
	if m.Annotations == nil {
		m.Annotations = map[string]string{}
	}
	m.Annotations[api.LastAppliedAnnotation] = lastApplied
	return nil
}

// nameArg is NameFromCommandArgs: exactly one NAME.
func (x *execCtx) nameArg() (string, error) {
	if len(x.cmd.Args) != 1 {
		return "", &usageError{path: x.cmd.path(), msg: fmt.Sprintf(msgExactlyOneName, len(x.cmd.Args))}
	}
	return x.cmd.Args[0], nil
}

// runCreateDeployment is `kubectl create deployment NAME --image=IMG`:
// the Deployment kubectl generates, labels app=NAME, one container per image
// named after the image.
func runCreateDeployment(x *execCtx) error {
	c := x.cmd
	name, err := x.nameArg()
	if err != nil {
		return err
	}
	images := c.list("image")
	d := &api.Deployment{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: api.KindDeployment}}
	d.Name = name
	if c.changed("namespace") {
		d.Namespace = x.ns
	}
	d.Labels = map[string]string{"app": name}
	d.Spec.Replicas = api.Int32(int32(c.integer("replicas")))
	d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": name}}
	d.Spec.Template.Labels = map[string]string{"app": name}
	d.Spec.Template.Spec.Containers = []api.Container{}
	for _, img := range images {
		d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers, api.Container{Name: x.containerName(img), Image: img})
	}
	if port := c.integer("port"); port >= 0 && len(d.Spec.Template.Spec.Containers) > 0 {
		d.Spec.Template.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: int32(port)}}
	}
	return x.createGenerated(d, "deployment")
}

// containerName is buildPodSpec's name: the image's last path part without
// tag or digest; "_" and "." become "-" and get a random suffix.
func (x *execCtx) containerName(image string) string {
	parts := strings.Split(image, "/")
	name := parts[len(parts)-1]
	if i := strings.Index(name, ":"); i >= 0 {
		name = name[:i]
	}
	if i := strings.Index(name, "@"); i >= 0 {
		name = name[:i]
	}
	if strings.ContainsAny(name, "_.") {
		name = strings.NewReplacer("_", "-", ".", "-").Replace(name)
		name = name + "-" + x.st.RandomSuffix(5)
	}
	return name
}

// createGenerated creates (or, with --dry-run=client, only prints) an object
// a create subcommand built.
func (x *execCtx) createGenerated(obj api.Object, what string) error {
	rt := api.ResourceOf(obj)
	if err := checkOutput(x.cmd.str("output"), false); err != nil {
		return err
	}
	if x.cmd.boolean("save-config") {
		if err := saveConfig(obj); err != nil {
			return err
		}
	}
	if x.dry == "client" {
		x.printObject(rt, obj, "created")
		return nil
	}
	if obj.GetObjectMeta().Namespace == "" {
		obj.GetObjectMeta().Namespace = x.ns
	}
	created, err := x.create(obj)
	if err != nil {
		return &plainError{msg: fmt.Sprintf(msgFailedCreate, what, err)}
	}
	x.printObject(rt, created, "created")
	return nil
}

// isConfigMapKeyName matches `^[-._a-zA-Z0-9]+$`, the characters
// msgConfigMapKeyFormat names.
func isConfigMapKeyName(k string) bool {
	for i := 0; i < len(k); i++ {
		if !isEnvNameChar(k[i]) && (k[i] < '0' || k[i] > '9') {
			return false
		}
	}
	return k != ""
}

// runCreateConfigMap is `kubectl create configmap NAME --from-literal=K=V...`.
func runCreateConfigMap(x *execCtx) error {
	c := x.cmd
	name, err := x.nameArg()
	if err != nil {
		return err
	}
	if len(c.list("from-file")) > 0 || len(c.list("from-env-file")) > 0 {
		return &plainError{msg: msgFromFileUnsupported}
	}
	cm := &api.ConfigMap{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: api.KindConfigMap}}
	cm.Name = name
	if c.changed("namespace") {
		cm.Namespace = x.ns
	}
	cm.Data = map[string]string{}
	for _, lit := range c.list("from-literal") {
		k, v, ok := strings.Cut(lit, "=")
		if !ok || k == "" {
			return &plainError{msg: fmt.Sprintf(msgInvalidLiteral, lit)}
		}
		v = strings.Trim(v, "\"'")
		if len(k) > 253 {
			return &plainError{msg: fmt.Sprintf(msgConfigMapKeyInvalid, k, msgConfigMapKeyTooLong)}
		}
		if !isConfigMapKeyName(k) {
			return &plainError{msg: fmt.Sprintf(msgConfigMapKeyInvalid, k, msgConfigMapKeyFormat)}
		}
		if _, dup := cm.Data[k]; dup {
			return &plainError{msg: fmt.Sprintf(msgConfigMapKeyDuplicate, k, name)}
		}
		cm.Data[k] = v
	}
	if c.boolean("append-hash") {
		return &plainError{msg: "--append-hash is not supported in Converge"}
	}
	return x.createGenerated(cm, "configmap")
}
