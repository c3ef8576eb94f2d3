package validation

import (
	"encoding/json"
	"fmt"
	"strings"

	"converge/core/api"
	"converge/core/labels"
	"converge/core/validation/field"
)

var (
	pullPolicies              = []string{"Always", "IfNotPresent", "Never"}
	terminationMessagePolicys = []string{"File", "FallbackToLogsOnError"}
	portProtocols             = []string{"SCTP", "TCP", "UDP"}
)

// validateContainers is validateContainers: at least one container, each
// valid, names unique, lifecycle hooks and probes valid (a preStop sleep
// within grace, the pod's terminationGracePeriodSeconds), host ports not in
// conflict.
func validateContainers(cs []api.Container, vols map[string]bool, grace *int64, p *path) field.ErrorList {
	if len(cs) == 0 {
		return field.ErrorList{p.required("")}
	}
	var errs field.ErrorList
	for i := range cs {
		c := &cs[i]
		cp := p.at(i)
		errs = append(errs, validateContainerCommon(c, vols, &cp)...)
		for j := 0; j < i; j++ {
			if cs[j].Name == c.Name {
				errs = append(errs, cp.child("name").duplicate(c.Name))
				break
			}
		}
		if c.Lifecycle != nil {
			lp := cp.child("lifecycle")
			errs = append(errs, validateLifecycle(c.Lifecycle, grace, &lp)...)
		}
		if c.LivenessProbe != nil {
			pp := cp.child("livenessProbe")
			errs = append(errs, validateProbe(c.LivenessProbe, &pp, true)...)
		}
		if c.ReadinessProbe != nil {
			pp := cp.child("readinessProbe")
			errs = append(errs, validateReadinessProbe(c.ReadinessProbe, &pp)...)
		}
		if c.StartupProbe != nil {
			pp := cp.child("startupProbe")
			errs = append(errs, validateProbe(c.StartupProbe, &pp, true)...)
		}
	}
	return append(errs, checkHostPortConflicts(cs, p)...)
}

// validateInitContainers is validateInitContainers for init containers
// without restartPolicy (Converge does not model sidecars): names unique
// across init and regular containers, no probes or lifecycle hooks.
func validateInitContainers(cs, regular []api.Container, vols map[string]bool, p *path) field.ErrorList {
	if len(cs) == 0 {
		return nil
	}
	var errs field.ErrorList
	names := make(map[string]bool, len(cs)+len(regular))
	for _, c := range regular {
		names[c.Name] = true
	}
	const notAllowed = "may not be set for init containers without restartPolicy=Always"
	for i := range cs {
		c := &cs[i]
		cp := p.at(i)
		errs = append(errs, validateContainerCommon(c, vols, &cp)...)
		if names[c.Name] {
			errs = append(errs, cp.child("name").duplicate(c.Name))
		} else if c.Name != "" {
			names[c.Name] = true
		}
		errs = append(errs, checkHostPortConflicts(cs[i:i+1], p)...)
		if c.Lifecycle != nil {
			errs = append(errs, cp.child("lifecycle").forbidden(notAllowed))
		}
		if c.LivenessProbe != nil {
			errs = append(errs, cp.child("livenessProbe").forbidden(notAllowed))
		}
		if c.ReadinessProbe != nil {
			errs = append(errs, cp.child("readinessProbe").forbidden(notAllowed))
		}
		if c.StartupProbe != nil {
			errs = append(errs, cp.child("startupProbe").forbidden(notAllowed))
		}
	}
	return errs
}

// validateContainerCommon is validateContainerCommon: name, image,
// terminationMessagePolicy, ports, env, volume mounts, imagePullPolicy and
// resources.
func validateContainerCommon(c *api.Container, vols map[string]bool, p *path) field.ErrorList {
	var errs field.ErrorList
	if c.Name == "" {
		errs = append(errs, p.child("name").required(""))
	} else if labels.IsDNS1123Label(c.Name) != nil {
		np := p.child("name")
		errs = append(errs, validateDNS1123Label(c.Name, &np)...)
	}
	if c.Image == "" {
		errs = append(errs, p.child("image").required(""))
	}
	errs = append(errs, validateEnum(c.TerminationMessagePolicy, terminationMessagePolicys, p, "terminationMessagePolicy")...)
	if len(c.Ports) > 0 {
		pp := p.child("ports")
		errs = append(errs, validateContainerPorts(c.Ports, &pp)...)
	}
	if len(c.Env) > 0 {
		ep := p.child("env")
		errs = append(errs, validateEnv(c.Env, &ep)...)
	}
	if len(c.VolumeMounts) > 0 {
		vp := p.child("volumeMounts")
		errs = append(errs, validateVolumeMounts(c.VolumeMounts, vols, &vp)...)
	}
	errs = append(errs, validateEnum(c.ImagePullPolicy, pullPolicies, p, "imagePullPolicy")...)
	if !c.Resources.IsZero() {
		rp := p.child("resources")
		errs = append(errs, validateResourceRequirements(&c.Resources, &rp)...)
	}
	return errs
}

// validateContainerPorts is validateContainerPorts.
func validateContainerPorts(ports []api.ContainerPort, p *path) field.ErrorList {
	var errs field.ErrorList
	for i, port := range ports {
		pp := p.at(i)
		if port.Name != "" {
			if msgs := IsValidPortName(port.Name); len(msgs) != 0 {
				for _, msg := range msgs {
					errs = append(errs, pp.child("name").invalid(port.Name, msg))
				}
			} else {
				for j := 0; j < i; j++ {
					if ports[j].Name == port.Name && len(IsValidPortName(ports[j].Name)) == 0 {
						errs = append(errs, pp.child("name").duplicate(port.Name))
						break
					}
				}
			}
		}
		if port.ContainerPort == 0 {
			errs = append(errs, pp.child("containerPort").required(""))
		} else {
			for _, msg := range IsValidPortNum(int(port.ContainerPort)) {
				errs = append(errs, pp.child("containerPort").invalid(port.ContainerPort, msg))
			}
		}
		if port.HostPort != 0 {
			for _, msg := range IsValidPortNum(int(port.HostPort)) {
				errs = append(errs, pp.child("hostPort").invalid(port.HostPort, msg))
			}
		}
		errs = append(errs, validateEnum(port.Protocol, portProtocols, &pp, "protocol")...)
	}
	return errs
}

// checkHostPortConflicts is checkHostPortConflicts: a protocol/hostIP/port
// triple may be used once (Converge has no hostIP, so it is empty).
func checkHostPortConflicts(cs []api.Container, p *path) field.ErrorList {
	var errs field.ErrorList
	var seen map[string]bool
	for i, c := range cs {
		for j, port := range c.Ports {
			if port.HostPort == 0 {
				continue
			}
			if seen == nil {
				seen = map[string]bool{}
			}
			k := fmt.Sprintf("%s//%d", port.Protocol, port.HostPort)
			if seen[k] {
				cp := p.at(i)
				pp := cp.child("ports")
				hp := pp.at(j)
				errs = append(errs, hp.child("hostPort").duplicate(k))
			}
			seen[k] = true
		}
	}
	return errs
}

// validateEnv is ValidateEnv with relaxed names (current Kubernetes) and the
// valueFrom source count; the sources themselves are kept raw.
func validateEnv(vars []api.EnvVar, p *path) field.ErrorList {
	var errs field.ErrorList
	for i, ev := range vars {
		ep := p.at(i)
		if ev.Name == "" {
			errs = append(errs, ep.child("name").required(""))
		} else {
			for _, msg := range IsRelaxedEnvVarName(ev.Name) {
				errs = append(errs, ep.child("name").invalid(ev.Name, msg))
			}
		}
		errs = append(errs, validateEnvVarValueFrom(ev, &ep)...)
	}
	return errs
}

func validateEnvVarValueFrom(ev api.EnvVar, p *path) field.ErrorList {
	if len(ev.ValueFrom) == 0 || string(ev.ValueFrom) == "null" {
		return nil
	}
	var src map[string]json.RawMessage
	_ = json.Unmarshal(ev.ValueFrom, &src)
	n := 0
	for _, k := range []string{"fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef"} {
		if v, ok := src[k]; ok && string(v) != "null" {
			n++
		}
	}
	vp := p.child("valueFrom")
	switch {
	case n == 0:
		return field.ErrorList{vp.invalid("", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`")}
	case ev.Value != "":
		return field.ErrorList{vp.invalid("", "may not be specified when `value` is not empty")}
	case n > 1:
		return field.ErrorList{vp.invalid("", "may not have more than one field specified at a time")}
	}
	return nil
}

// validateReadinessProbe adds to validateProbe that a readiness probe may not
// set terminationGracePeriodSeconds.
func validateReadinessProbe(pr *api.Probe, p *path) field.ErrorList {
	errs := validateProbe(pr, p, false)
	if pr.TerminationGracePeriodSeconds != nil {
		errs = append(errs, p.child("terminationGracePeriodSeconds").invalid(pr.TerminationGracePeriodSeconds, "must not be set for readinessProbes"))
	}
	return errs
}

// validateProbe is validateProbe: exactly one handler, non-negative numbers,
// a positive terminationGracePeriodSeconds. Liveness and startup probes need
// successThreshold 1.
func validateProbe(pr *api.Probe, p *path, successMustBeOne bool) field.ErrorList {
	errs := validateHandler(pr, p)
	errs = append(errs, validateNonnegative(int64(pr.InitialDelaySeconds), p, "initialDelaySeconds")...)
	errs = append(errs, validateNonnegative(int64(pr.TimeoutSeconds), p, "timeoutSeconds")...)
	errs = append(errs, validateNonnegative(int64(pr.PeriodSeconds), p, "periodSeconds")...)
	errs = append(errs, validateNonnegative(int64(pr.SuccessThreshold), p, "successThreshold")...)
	errs = append(errs, validateNonnegative(int64(pr.FailureThreshold), p, "failureThreshold")...)
	if g := pr.TerminationGracePeriodSeconds; g != nil && *g <= 0 {
		errs = append(errs, p.child("terminationGracePeriodSeconds").invalid(*g, "must be greater than 0"))
	}
	if successMustBeOne && pr.SuccessThreshold != 1 {
		errs = append(errs, p.child("successThreshold").invalid(pr.SuccessThreshold, "must be 1"))
	}
	return errs
}

// validateHandler is validateHandler for a probe's raw handler: exactly one of
// exec, httpGet, tcpSocket and grpc; an exec needs a command and the others a
// valid port.
func validateHandler(pr *api.Probe, p *path) field.ErrorList {
	var errs field.ErrorList
	n := 0
	for _, h := range [...]struct {
		name string
		raw  api.Raw
	}{{"exec", pr.Exec}, {"httpGet", pr.HTTPGet}, {"tcpSocket", pr.TCPSocket}, {"grpc", pr.GRPC}} {
		if len(h.raw) == 0 || string(h.raw) == "null" {
			continue
		}
		hp := p.child(h.name)
		if n > 0 {
			errs = append(errs, hp.forbidden("may not specify more than 1 handler type"))
			continue
		}
		n++
		errs = append(errs, validateHandlerDetails(h.name, h.raw, &hp)...)
	}
	if n == 0 {
		errs = append(errs, p.required("must specify a handler type"))
	}
	return errs
}

// validateLifecycle is validateLifecycle: each hook has exactly one handler.
func validateLifecycle(l *api.Lifecycle, grace *int64, p *path) field.ErrorList {
	var errs field.ErrorList
	if l.PostStart != nil {
		hp := p.child("postStart")
		errs = append(errs, validateLifecycleHandler(l.PostStart, grace, &hp)...)
	}
	if l.PreStop != nil {
		hp := p.child("preStop")
		errs = append(errs, validateLifecycleHandler(l.PreStop, grace, &hp)...)
	}
	return errs
}

// validateLifecycleHandler is validateHandler for a LifecycleHandler:
// exactly one of exec, httpGet, tcpSocket and sleep, in that order.
func validateLifecycleHandler(h *api.LifecycleHandler, grace *int64, p *path) field.ErrorList {
	var errs field.ErrorList
	n := 0
	one := func(name string) (path, bool) {
		hp := p.child(name)
		if n > 0 {
			errs = append(errs, hp.forbidden("may not specify more than 1 handler type"))
			return hp, false
		}
		n++
		return hp, true
	}
	if h.Exec != nil {
		if hp, ok := one("exec"); ok && len(h.Exec.Command) == 0 {
			cp := hp.child("command")
			errs = append(errs, cp.required(""))
		}
	}
	for _, raw := range [...]struct {
		name string
		raw  api.Raw
	}{{"httpGet", h.HTTPGet}, {"tcpSocket", h.TCPSocket}} {
		if len(raw.raw) == 0 || string(raw.raw) == "null" {
			continue
		}
		if hp, ok := one(raw.name); ok {
			errs = append(errs, validateHandlerDetails(raw.name, raw.raw, &hp)...)
		}
	}
	if h.Sleep != nil {
		if hp, ok := one("sleep"); ok {
			errs = append(errs, validateSleepAction(h.Sleep, grace, &hp)...)
		}
	}
	if n == 0 {
		errs = append(errs, p.required("must specify a handler type"))
	}
	return errs
}

// validateSleepAction is validateSleepAction with
// PodLifecycleSleepActionAllowZero (on by default since Kubernetes 1.33): the
// sleep may not be negative nor longer than the pod's grace period.
func validateSleepAction(s *api.SleepAction, grace *int64, p *path) field.ErrorList {
	if grace != nil && (s.Seconds < 0 || s.Seconds > *grace) {
		return field.ErrorList{p.invalid(s.Seconds, fmt.Sprintf("must be non-negative and less than terminationGracePeriodSeconds (%d)", *grace))}
	}
	return nil
}

// handlerFields are the parts of a raw probe handler that are validated.
type handlerFields struct {
	Command []string         `json:"command"`
	Port    *api.IntOrString `json:"port"`
	Scheme  string           `json:"scheme"`
}

func validateHandlerDetails(kind string, raw api.Raw, p *path) field.ErrorList {
	var h handlerFields
	_ = json.Unmarshal(raw, &h)
	port := derefIntOrString(h.Port)
	pp := p.child("port")
	switch kind {
	case "exec":
		if len(h.Command) == 0 {
			return field.ErrorList{p.child("command").required("")}
		}
		return nil
	case "grpc":
		port.IsString = false
		return validatePortNumOrName(port, &pp)
	}
	errs := validatePortNumOrName(port, &pp)
	if kind == "httpGet" && h.Scheme != "" && h.Scheme != "HTTP" && h.Scheme != "HTTPS" {
		errs = append(errs, p.child("scheme").notSupported(h.Scheme, []string{"HTTP", "HTTPS"}))
	}
	return errs
}

// validatePortNumOrName is ValidatePortNumOrName.
func validatePortNumOrName(port api.IntOrString, p *path) field.ErrorList {
	var errs field.ErrorList
	if port.IsString {
		for _, msg := range IsValidPortName(port.StrVal) {
			errs = append(errs, p.invalid(port.StrVal, msg))
		}
		return errs
	}
	for _, msg := range IsValidPortNum(int(port.IntVal)) {
		errs = append(errs, p.invalid(int(port.IntVal), msg))
	}
	return errs
}

// validateContainersOnlyForPod is the pod-only container check: no leading
// or trailing whitespace in an image name.
func validateContainersOnlyForPod(cs []api.Container, p *path) field.ErrorList {
	var errs field.ErrorList
	for i, c := range cs {
		if len(c.Image) != len(strings.TrimSpace(c.Image)) {
			cp := p.at(i)
			errs = append(errs, cp.child("image").invalid(c.Image, "must not have leading or trailing whitespace"))
		}
	}
	return errs
}
