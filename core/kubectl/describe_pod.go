package kubectl

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"converge/core/api"
)

// podTemplate is DescribePodTemplate.
func (d *describer) podTemplate(t *api.PodTemplateSpec) {
	d.write(level0, "Pod Template:\n")
	d.labelsMultiline("", "  Labels", t.Labels)
	if len(t.Annotations) > 0 {
		d.annotationsMultiline("  Annotations", t.Annotations)
	}
	if t.Spec.ServiceAccountName != "" {
		d.write(level1, "Service Account:\t%s\n", t.Spec.ServiceAccountName)
	}
	if len(t.Spec.InitContainers) > 0 {
		d.containers("Init Containers", t.Spec.InitContainers, nil, "  ")
	}
	d.containers("Containers", t.Spec.Containers, nil, "  ")
	d.volumes(t.Spec.Volumes, "  ")
	if t.Spec.PriorityClassName != "" {
		d.write(level1, "Priority Class Name:\t%s\n", t.Spec.PriorityClassName)
	}
	d.labelsMultiline("", "  Node-Selectors", t.Spec.NodeSelector)
	d.tolerationsMultiline("", "  Tolerations", t.Spec.Tolerations)
}

// containers is describeContainers; statuses is nil for a template.
func (d *describer) containers(label string, cs []api.Container, statuses []api.ContainerStatus, space string) {
	byName := map[string]api.ContainerStatus{}
	for _, s := range statuses {
		byName[s.Name] = s
	}
	none := ""
	if len(cs) == 0 {
		none = " <none>"
	}
	d.write(level0, "%s%s:%s\n", space, label, none)
	nameIndent := ""
	if space != "" {
		nameIndent = " "
	}
	for _, c := range cs {
		st, ok := byName[c.Name]
		d.write(level1, "%s%v:\n", nameIndent, c.Name)
		if ok {
			d.write(level2, "Container ID:\t%s\n", st.ContainerID)
		}
		d.write(level2, "Image:\t%s\n", c.Image)
		if ok {
			d.write(level2, "Image ID:\t%s\n", st.ImageID)
		}
		ports, hostPorts := containerPorts(c.Ports)
		if strings.Contains(ports, ",") {
			d.write(level2, "Ports:\t%s\n", ports)
		} else {
			d.write(level2, "Port:\t%s\n", orNone(ports))
		}
		if strings.Contains(hostPorts, ",") {
			d.write(level2, "Host Ports:\t%s\n", hostPorts)
		} else {
			d.write(level2, "Host Port:\t%s\n", orNone(hostPorts))
		}
		d.command("Command", c.Command)
		d.command("Args", c.Args)
		if ok {
			d.containerState("State", st.State)
			if st.LastTerminationState.Terminated != nil {
				d.containerState("Last State", st.LastTerminationState)
			}
			d.write(level2, "Ready:\t%v\n", printBool(st.Ready))
			d.write(level2, "Restart Count:\t%d\n", st.RestartCount)
		}
		d.resources(c.Resources, level2)
		d.probe("Liveness", c.LivenessProbe)
		d.probe("Readiness", c.ReadinessProbe)
		d.probe("Startup", c.StartupProbe)
		if len(c.EnvFrom) > 0 {
			d.envFrom(c.EnvFrom)
		}
		d.env(c.Env)
		d.mounts(c.VolumeMounts)
	}
}

func containerPorts(ps []api.ContainerPort) (string, string) {
	ports := make([]string, len(ps))
	hosts := make([]string, len(ps))
	for i, p := range ps {
		ports[i] = fmt.Sprintf("%d/%s", p.ContainerPort, p.Protocol)
		hosts[i] = fmt.Sprintf("%d/%s", p.HostPort, p.Protocol)
		if p.Name != "" {
			ports[i] += " (" + p.Name + ")"
			hosts[i] += " (" + p.Name + ")"
		}
	}
	return strings.Join(ports, ", "), strings.Join(hosts, ", ")
}

func (d *describer) command(title string, words []string) {
	if len(words) == 0 {
		return
	}
	d.write(level2, "%s:\n", title)
	for _, w := range words {
		for _, s := range strings.Split(w, "\n") {
			d.write(level3, "%s\n", s)
		}
	}
}

func printBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// containerState is describeStatus.
func (d *describer) containerState(name string, s api.ContainerState) {
	switch {
	case s.Running != nil:
		d.write(level2, "%s:\tRunning\n", name)
		d.write(level3, "Started:\t%v\n", rfc1123(s.Running.StartedAt))
	case s.Waiting != nil:
		d.write(level2, "%s:\tWaiting\n", name)
		if s.Waiting.Reason != "" {
			d.write(level3, "Reason:\t%s\n", s.Waiting.Reason)
		}
	case s.Terminated != nil:
		t := s.Terminated
		d.write(level2, "%s:\tTerminated\n", name)
		if t.Reason != "" {
			d.write(level3, "Reason:\t%s\n", t.Reason)
		}
		if t.Message != "" {
			d.write(level3, "Message:\t%s\n", t.Message)
		}
		d.write(level3, "Exit Code:\t%d\n", t.ExitCode)
		if t.Signal > 0 {
			d.write(level3, "Signal:\t%d\n", t.Signal)
		}
		d.write(level3, "Started:\t%s\n", rfc1123(t.StartedAt))
		d.write(level3, "Finished:\t%s\n", rfc1123(t.FinishedAt))
	default:
		d.write(level2, "%s:\tWaiting\n", name)
	}
}

func (d *describer) resources(r api.ResourceRequirements, level int) {
	if len(r.Limits) > 0 {
		d.write(level, "Limits:\n")
	}
	for _, k := range sortedResourceNames(r.Limits) {
		d.write(level+1, "%s:\t%s\n", k, r.Limits[k].String())
	}
	if len(r.Requests) > 0 {
		d.write(level, "Requests:\n")
	}
	for _, k := range sortedResourceNames(r.Requests) {
		d.write(level+1, "%s:\t%s\n", k, r.Requests[k].String())
	}
}

func sortedResourceNames(l api.ResourceList) []string {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// probe is DescribeProbe: the handler and its timings.
func (d *describer) probe(title string, p *api.Probe) {
	if p == nil {
		return
	}
	attrs := fmt.Sprintf("delay=%ds timeout=%ds period=%ds #success=%d #failure=%d", p.InitialDelaySeconds, p.TimeoutSeconds,
		p.PeriodSeconds, p.SuccessThreshold, p.FailureThreshold)
	d.write(level2, "%s:\t%s\n", title, probeHandler(p)+" "+attrs)
}

func probeHandler(p *api.Probe) string {
	switch {
	case len(p.Exec) > 0:
		var e struct {
			Command []string `json:"command"`
		}
		_ = json.Unmarshal(p.Exec, &e)
		return fmt.Sprintf("exec %v", e.Command)
	case len(p.HTTPGet) > 0:
		var h struct {
			Path   string          `json:"path"`
			Port   api.IntOrString `json:"port"`
			Host   string          `json:"host"`
			Scheme string          `json:"scheme"`
		}
		_ = json.Unmarshal(p.HTTPGet, &h)
		scheme := strings.ToLower(h.Scheme)
		if scheme == "" {
			scheme = "http"
		}
		return fmt.Sprintf("http-get %s://%s:%s%s", scheme, h.Host, h.Port.String(), h.Path)
	case len(p.TCPSocket) > 0:
		var t struct {
			Host string          `json:"host"`
			Port api.IntOrString `json:"port"`
		}
		_ = json.Unmarshal(p.TCPSocket, &t)
		return fmt.Sprintf("tcp-socket %s:%s", t.Host, t.Port.String())
	case len(p.GRPC) > 0:
		var g struct {
			Port    int32  `json:"port"`
			Service string `json:"service"`
		}
		_ = json.Unmarshal(p.GRPC, &g)
		return fmt.Sprintf("grpc <pod>:%d %s", g.Port, g.Service)
	}
	return "unknown"
}

func (d *describer) envFrom(raw api.Raw) {
	var srcs []struct {
		Prefix       string `json:"prefix"`
		ConfigMapRef *struct {
			Name     string `json:"name"`
			Optional *bool  `json:"optional"`
		} `json:"configMapRef"`
		SecretRef *struct {
			Name     string `json:"name"`
			Optional *bool  `json:"optional"`
		} `json:"secretRef"`
	}
	_ = json.Unmarshal(raw, &srcs)
	d.write(level2, "Environment Variables from:\n")
	for _, s := range srcs {
		from, name, optional := "", "", false
		switch {
		case s.ConfigMapRef != nil:
			from, name, optional = "ConfigMap", s.ConfigMapRef.Name, s.ConfigMapRef.Optional != nil && *s.ConfigMapRef.Optional
		case s.SecretRef != nil:
			from, name, optional = "Secret", s.SecretRef.Name, s.SecretRef.Optional != nil && *s.SecretRef.Optional
		}
		if s.Prefix == "" {
			d.write(level3, "%s\t%s\tOptional: %t\n", name, from, optional)
		} else {
			d.write(level3, "%s\t%s with prefix '%s'\tOptional: %t\n", name, from, s.Prefix, optional)
		}
	}
}

// env is describeContainerEnvVars.
func (d *describer) env(env []api.EnvVar) {
	if len(env) == 0 {
		d.write(level2, "Environment:\t<none>\n")
		return
	}
	d.write(level2, "Environment:\n")
	for _, e := range env {
		if len(e.ValueFrom) == 0 {
			for i, s := range strings.Split(e.Value, "\n") {
				if i == 0 {
					d.write(level3, "%s:\t%s\n", e.Name, s)
				} else {
					d.write(level3, "\t%s\n", s)
				}
			}
			continue
		}
		var vf struct {
			FieldRef *struct {
				APIVersion string `json:"apiVersion"`
				FieldPath  string `json:"fieldPath"`
			} `json:"fieldRef"`
			ResourceFieldRef *struct {
				Resource string `json:"resource"`
			} `json:"resourceFieldRef"`
			SecretKeyRef *struct {
				Name     string `json:"name"`
				Key      string `json:"key"`
				Optional *bool  `json:"optional"`
			} `json:"secretKeyRef"`
			ConfigMapKeyRef *struct {
				Name     string `json:"name"`
				Key      string `json:"key"`
				Optional *bool  `json:"optional"`
			} `json:"configMapKeyRef"`
		}
		_ = json.Unmarshal(e.ValueFrom, &vf)
		switch {
		case vf.FieldRef != nil:
			v := "v1"
			if vf.FieldRef.APIVersion != "" {
				v = vf.FieldRef.APIVersion
			}
			d.write(level3, "%s:\t%s (%s:%s)\n", e.Name, "", v, vf.FieldRef.FieldPath)
		case vf.ResourceFieldRef != nil:
			d.write(level3, "%s:\t%s (%s)\n", e.Name, "", vf.ResourceFieldRef.Resource)
		case vf.SecretKeyRef != nil:
			opt := vf.SecretKeyRef.Optional != nil && *vf.SecretKeyRef.Optional
			d.write(level3, "%s:\t<set to the key '%s' in secret '%s'>\tOptional: %t\n", e.Name, vf.SecretKeyRef.Key, vf.SecretKeyRef.Name, opt)
		case vf.ConfigMapKeyRef != nil:
			opt := vf.ConfigMapKeyRef.Optional != nil && *vf.ConfigMapKeyRef.Optional
			d.write(level3, "%s:\t<set to the key '%s' of config map '%s'>\tOptional: %t\n", e.Name, vf.ConfigMapKeyRef.Key, vf.ConfigMapKeyRef.Name, opt)
		}
	}
}

// mounts is describeContainerVolumes.
func (d *describer) mounts(raw api.Raw) {
	var ms []struct {
		Name      string `json:"name"`
		MountPath string `json:"mountPath"`
		ReadOnly  bool   `json:"readOnly"`
		SubPath   string `json:"subPath"`
	}
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &ms)
	}
	if len(ms) == 0 {
		d.write(level2, "Mounts:\t<none>\n")
		return
	}
	d.write(level2, "Mounts:\n")
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].MountPath < ms[j].MountPath })
	for _, m := range ms {
		flags := []string{"rw"}
		if m.ReadOnly {
			flags[0] = "ro"
		}
		if m.SubPath != "" {
			flags = append(flags, fmt.Sprintf("path=%q", m.SubPath))
		}
		d.write(level3, "%s from %s (%s)\n", m.MountPath, m.Name, strings.Join(flags, ","))
	}
}

// volumes is describeVolumes for the volume types manifests commonly use.
func (d *describer) volumes(raw api.Raw, space string) {
	var vs []map[string]json.RawMessage
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &vs)
	}
	if len(vs) == 0 {
		d.write(level0, "%sVolumes:\t<none>\n", space)
		return
	}
	d.write(level0, "%sVolumes:\n", space)
	nameIndent := ""
	if space != "" {
		nameIndent = " "
	}
	for _, v := range vs {
		var name string
		_ = json.Unmarshal(v["name"], &name)
		d.write(level1, "%s%v:\n", nameIndent, name)
		d.volumeSource(v)
	}
}

func (d *describer) volumeSource(v map[string]json.RawMessage) {
	var src struct {
		Name       string  `json:"name"`
		SecretName string  `json:"secretName"`
		ClaimName  string  `json:"claimName"`
		ReadOnly   bool    `json:"readOnly"`
		Medium     string  `json:"medium"`
		SizeLimit  *string `json:"sizeLimit"`
		Path       string  `json:"path"`
		Type       *string `json:"type"`
		Optional   *bool   `json:"optional"`
	}
	optional := func() bool { return src.Optional != nil && *src.Optional }
	switch {
	case v["emptyDir"] != nil:
		_ = json.Unmarshal(v["emptyDir"], &src)
		limit := "<unset>"
		if src.SizeLimit != nil && *src.SizeLimit != "0" {
			limit = *src.SizeLimit
		}
		d.write(level2, "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t%v\n    SizeLimit:\t%v\n", src.Medium, limit)
	case v["configMap"] != nil:
		_ = json.Unmarshal(v["configMap"], &src)
		d.write(level2, "Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t%v\n    Optional:\t%v\n", src.Name, optional())
	case v["secret"] != nil:
		_ = json.Unmarshal(v["secret"], &src)
		d.write(level2, "Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t%v\n    Optional:\t%v\n", src.SecretName, optional())
	case v["hostPath"] != nil:
		_ = json.Unmarshal(v["hostPath"], &src)
		t := "<none>"
		if src.Type != nil {
			t = *src.Type
		}
		d.write(level2, "Type:\tHostPath (bare host directory volume)\n    Path:\t%v\n    HostPathType:\t%v\n", src.Path, t)
	case v["persistentVolumeClaim"] != nil:
		_ = json.Unmarshal(v["persistentVolumeClaim"], &src)
		d.write(level2, "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t%v\n    ReadOnly:\t%v\n", src.ClaimName, src.ReadOnly)
	default:
		d.write(level1, "<unknown>\n")
	}
}

// hasLocalStorage reports whether a pod has an emptyDir volume.
func hasLocalStorage(p *api.Pod) bool {
	var vs []map[string]json.RawMessage
	if len(p.Spec.Volumes) == 0 || json.Unmarshal(p.Spec.Volumes, &vs) != nil {
		return false
	}
	for _, v := range vs {
		if v["emptyDir"] != nil {
			return true
		}
	}
	return false
}

// pod is describePod.
func (d *describer) pod(p *api.Pod) {
	d.write(level0, "Name:\t%s\n", p.Name)
	d.write(level0, "Namespace:\t%s\n", p.Namespace)
	if p.Spec.Priority != nil {
		d.write(level0, "Priority:\t%d\n", *p.Spec.Priority)
	}
	if p.Spec.PriorityClassName != "" {
		d.write(level0, "Priority Class Name:\t%s\n", p.Spec.PriorityClassName)
	}
	if p.Spec.ServiceAccountName != "" {
		d.write(level0, "Service Account:\t%s\n", p.Spec.ServiceAccountName)
	}
	if p.Spec.NodeName == "" {
		d.write(level0, "Node:\t<none>\n")
	} else {
		d.write(level0, "Node:\t%s\n", p.Spec.NodeName+"/"+p.Status.HostIP)
	}
	if p.Status.StartTime != nil {
		d.write(level0, "Start Time:\t%s\n", rfc1123(*p.Status.StartTime))
	}
	d.labelsMultiline("", "Labels", p.Labels)
	d.annotationsMultiline("Annotations", p.Annotations)
	if p.DeletionTimestamp != nil && p.Status.Phase != api.PodFailed && p.Status.Phase != api.PodSucceeded {
		d.write(level0, "Status:\tTerminating (lasts %s)\n", since(d.now, *p.DeletionTimestamp))
		d.write(level0, "Termination Grace Period:\t%ds\n", api.Deref64(p.DeletionGracePeriodSeconds, 0))
	} else {
		d.write(level0, "Status:\t%s\n", p.Status.Phase)
	}
	if p.Status.Reason != "" {
		d.write(level0, "Reason:\t%s\n", p.Status.Reason)
	}
	if p.Status.Message != "" {
		d.write(level0, "Message:\t%s\n", p.Status.Message)
	}
	d.write(level0, "IP:\t%s\n", p.Status.PodIP)
	if p.Status.PodIP == "" {
		d.write(level0, "IPs:\t<none>\n")
	} else {
		d.write(level0, "IPs:\n")
		d.write(level1, "IP:\t%s\n", p.Status.PodIP)
	}
	if by := printController(&p.ObjectMeta); by != "" {
		d.write(level0, "Controlled By:\t%s\n", by)
	}
	if len(p.Spec.InitContainers) > 0 {
		d.containers("Init Containers", p.Spec.InitContainers, nil, "")
	}
	d.containers("Containers", p.Spec.Containers, p.Status.ContainerStatuses, "")
	if len(p.Status.Conditions) > 0 {
		d.write(level0, "Conditions:\n  Type\tStatus\n")
		for _, c := range p.Status.Conditions {
			d.write(level1, "%v \t%v \n", c.Type, c.Status)
		}
	}
	d.volumes(p.Spec.Volumes, "")
	d.write(level0, "QoS Class:\t%s\n", podQOS(p))
	d.labelsMultiline("", "Node-Selectors", p.Spec.NodeSelector)
	d.tolerationsMultiline("", "Tolerations", p.Spec.Tolerations)
	d.events(p)
}

// podQOS is the class kubectl prints: the pod's status.qosClass, or the
// class computed from its spec when the status has none.
func podQOS(p *api.Pod) string {
	if p.Status.QOSClass != "" {
		return p.Status.QOSClass
	}
	return api.QOSClass(&p.Spec)
}
