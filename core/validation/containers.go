package validation

import (
	"encoding/json"
	"fmt"
	"strings"

	"converge/core/api"
	"converge/core/validation/field"
)

var (
	pullPolicies              = []string{"Always", "IfNotPresent", "Never"}
	terminationMessagePolicys = []string{"File", "FallbackToLogsOnError"}
	portProtocols             = []string{"SCTP", "TCP", "UDP"}
)

// validateContainers is validateContainers: at least one container, each
// valid, names unique, probes valid, host ports not in conflict.
func validateContainers(cs []api.Container, vols map[string]bool, p *field.Path) field.ErrorList {
	if len(cs) == 0 {
		return field.ErrorList{field.Required(p, "")}
	}
	var errs field.ErrorList
	names := make(map[string]bool, len(cs))
	for i := range cs {
		c := &cs[i]
		cp := p.Index(i)
		errs = append(errs, validateContainerCommon(c, vols, cp)...)
		if names[c.Name] {
			errs = append(errs, field.Duplicate(cp.Child("name"), c.Name))
		} else {
			names[c.Name] = true
		}
		errs = append(errs, validateProbe(c.LivenessProbe, cp.Child("livenessProbe"), true)...)
		errs = append(errs, validateReadinessProbe(c.ReadinessProbe, cp.Child("readinessProbe"))...)
		errs = append(errs, validateProbe(c.StartupProbe, cp.Child("startupProbe"), true)...)
	}
	return append(errs, checkHostPortConflicts(cs, p)...)
}

// validateInitContainers is validateInitContainers for init containers
// without restartPolicy (Converge does not model sidecars): names unique
// across init and regular containers, no probes or lifecycle hooks.
func validateInitContainers(cs, regular []api.Container, vols map[string]bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := make(map[string]bool, len(cs)+len(regular))
	for _, c := range regular {
		names[c.Name] = true
	}
	const notAllowed = "may not be set for init containers without restartPolicy=Always"
	for i := range cs {
		c := &cs[i]
		cp := p.Index(i)
		errs = append(errs, validateContainerCommon(c, vols, cp)...)
		if names[c.Name] {
			errs = append(errs, field.Duplicate(cp.Child("name"), c.Name))
		} else if c.Name != "" {
			names[c.Name] = true
		}
		errs = append(errs, checkHostPortConflicts(cs[i:i+1], p)...)
		if len(c.Lifecycle) > 0 {
			errs = append(errs, field.Forbidden(cp.Child("lifecycle"), notAllowed))
		}
		if c.LivenessProbe != nil {
			errs = append(errs, field.Forbidden(cp.Child("livenessProbe"), notAllowed))
		}
		if c.ReadinessProbe != nil {
			errs = append(errs, field.Forbidden(cp.Child("readinessProbe"), notAllowed))
		}
		if c.StartupProbe != nil {
			errs = append(errs, field.Forbidden(cp.Child("startupProbe"), notAllowed))
		}
	}
	return errs
}

// validateContainerCommon is validateContainerCommon: name, image,
// terminationMessagePolicy, ports, env, volume mounts, imagePullPolicy and
// resources.
func validateContainerCommon(c *api.Container, vols map[string]bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if c.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	} else {
		errs = append(errs, validateDNS1123Label(c.Name, p.Child("name"))...)
	}
	if c.Image == "" {
		errs = append(errs, field.Required(p.Child("image"), ""))
	}
	errs = append(errs, validateEnum(c.TerminationMessagePolicy, terminationMessagePolicys, p.Child("terminationMessagePolicy"))...)
	errs = append(errs, validateContainerPorts(c.Ports, p.Child("ports"))...)
	errs = append(errs, validateEnv(c.Env, p.Child("env"))...)
	errs = append(errs, validateVolumeMounts(c.VolumeMounts, vols, p.Child("volumeMounts"))...)
	errs = append(errs, validateEnum(c.ImagePullPolicy, pullPolicies, p.Child("imagePullPolicy"))...)
	return append(errs, validateResourceRequirements(&c.Resources, p.Child("resources"))...)
}

// validateContainerPorts is validateContainerPorts.
func validateContainerPorts(ports []api.ContainerPort, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	for i, port := range ports {
		pp := p.Index(i)
		if port.Name != "" {
			if msgs := IsValidPortName(port.Name); len(msgs) != 0 {
				for _, msg := range msgs {
					errs = append(errs, field.Invalid(pp.Child("name"), port.Name, msg))
				}
			} else if names[port.Name] {
				errs = append(errs, field.Duplicate(pp.Child("name"), port.Name))
			} else {
				names[port.Name] = true
			}
		}
		if port.ContainerPort == 0 {
			errs = append(errs, field.Required(pp.Child("containerPort"), ""))
		} else {
			for _, msg := range IsValidPortNum(int(port.ContainerPort)) {
				errs = append(errs, field.Invalid(pp.Child("containerPort"), port.ContainerPort, msg))
			}
		}
		if port.HostPort != 0 {
			for _, msg := range IsValidPortNum(int(port.HostPort)) {
				errs = append(errs, field.Invalid(pp.Child("hostPort"), port.HostPort, msg))
			}
		}
		errs = append(errs, validateEnum(port.Protocol, portProtocols, pp.Child("protocol"))...)
	}
	return errs
}

// checkHostPortConflicts is checkHostPortConflicts: a protocol/hostIP/port
// triple may be used once (Converge has no hostIP, so it is empty).
func checkHostPortConflicts(cs []api.Container, p *field.Path) field.ErrorList {
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
				errs = append(errs, field.Duplicate(p.Index(i).Child("ports").Index(j).Child("hostPort"), k))
			}
			seen[k] = true
		}
	}
	return errs
}

// validateEnv is ValidateEnv with relaxed names (current Kubernetes) and the
// valueFrom source count; the sources themselves are kept raw.
func validateEnv(vars []api.EnvVar, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, ev := range vars {
		ep := p.Index(i)
		if ev.Name == "" {
			errs = append(errs, field.Required(ep.Child("name"), ""))
		} else {
			for _, msg := range IsRelaxedEnvVarName(ev.Name) {
				errs = append(errs, field.Invalid(ep.Child("name"), ev.Name, msg))
			}
		}
		errs = append(errs, validateEnvVarValueFrom(ev, ep.Child("valueFrom"))...)
	}
	return errs
}

func validateEnvVarValueFrom(ev api.EnvVar, p *field.Path) field.ErrorList {
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
	switch {
	case n == 0:
		return field.ErrorList{field.Invalid(p, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`")}
	case ev.Value != "":
		return field.ErrorList{field.Invalid(p, "", "may not be specified when `value` is not empty")}
	case n > 1:
		return field.ErrorList{field.Invalid(p, "", "may not have more than one field specified at a time")}
	}
	return nil
}

// validateReadinessProbe adds to validateProbe that a readiness probe may not
// set terminationGracePeriodSeconds.
func validateReadinessProbe(pr *api.Probe, p *field.Path) field.ErrorList {
	if pr == nil {
		return nil
	}
	errs := validateProbe(pr, p, false)
	if pr.TerminationGracePeriodSeconds != nil {
		errs = append(errs, field.Invalid(p.Child("terminationGracePeriodSeconds"), pr.TerminationGracePeriodSeconds, "must not be set for readinessProbes"))
	}
	return errs
}

// validateProbe is validateProbe: exactly one handler, non-negative numbers,
// a positive terminationGracePeriodSeconds. Liveness and startup probes need
// successThreshold 1.
func validateProbe(pr *api.Probe, p *field.Path, successMustBeOne bool) field.ErrorList {
	if pr == nil {
		return nil
	}
	errs := validateHandler(pr, p)
	errs = append(errs, validateNonnegative(int64(pr.InitialDelaySeconds), p.Child("initialDelaySeconds"))...)
	errs = append(errs, validateNonnegative(int64(pr.TimeoutSeconds), p.Child("timeoutSeconds"))...)
	errs = append(errs, validateNonnegative(int64(pr.PeriodSeconds), p.Child("periodSeconds"))...)
	errs = append(errs, validateNonnegative(int64(pr.SuccessThreshold), p.Child("successThreshold"))...)
	errs = append(errs, validateNonnegative(int64(pr.FailureThreshold), p.Child("failureThreshold"))...)
	if g := pr.TerminationGracePeriodSeconds; g != nil && *g <= 0 {
		errs = append(errs, field.Invalid(p.Child("terminationGracePeriodSeconds"), *g, "must be greater than 0"))
	}
	if successMustBeOne && pr.SuccessThreshold != 1 {
		errs = append(errs, field.Invalid(p.Child("successThreshold"), pr.SuccessThreshold, "must be 1"))
	}
	return errs
}

// validateHandler is validateHandler for a probe's raw handler: exactly one of
// exec, httpGet, tcpSocket and grpc; an exec needs a command and the others a
// valid port.
func validateHandler(pr *api.Probe, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	n := 0
	for _, h := range []struct {
		name string
		raw  api.Raw
	}{{"exec", pr.Exec}, {"httpGet", pr.HTTPGet}, {"tcpSocket", pr.TCPSocket}, {"grpc", pr.GRPC}} {
		if len(h.raw) == 0 || string(h.raw) == "null" {
			continue
		}
		hp := p.Child(h.name)
		if n > 0 {
			errs = append(errs, field.Forbidden(hp, "may not specify more than 1 handler type"))
			continue
		}
		n++
		errs = append(errs, validateHandlerDetails(h.name, h.raw, hp)...)
	}
	if n == 0 {
		errs = append(errs, field.Required(p, "must specify a handler type"))
	}
	return errs
}

func validateHandlerDetails(kind string, raw api.Raw, p *field.Path) field.ErrorList {
	var h struct {
		Command []string         `json:"command"`
		Port    *api.IntOrString `json:"port"`
		Scheme  string           `json:"scheme"`
	}
	_ = json.Unmarshal(raw, &h)
	switch kind {
	case "exec":
		if len(h.Command) == 0 {
			return field.ErrorList{field.Required(p.Child("command"), "")}
		}
		return nil
	case "grpc":
		port := derefIntOrString(h.Port)
		port.IsString = false
		return validatePortNumOrName(port, p.Child("port"))
	}
	errs := validatePortNumOrName(derefIntOrString(h.Port), p.Child("port"))
	if kind == "httpGet" && h.Scheme != "" && h.Scheme != "HTTP" && h.Scheme != "HTTPS" {
		errs = append(errs, field.NotSupported(p.Child("scheme"), h.Scheme, []string{"HTTP", "HTTPS"}))
	}
	return errs
}

// validatePortNumOrName is ValidatePortNumOrName.
func validatePortNumOrName(port api.IntOrString, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if port.IsString {
		for _, msg := range IsValidPortName(port.StrVal) {
			errs = append(errs, field.Invalid(p, port.StrVal, msg))
		}
		return errs
	}
	for _, msg := range IsValidPortNum(int(port.IntVal)) {
		errs = append(errs, field.Invalid(p, int(port.IntVal), msg))
	}
	return errs
}

// validateContainersOnlyForPod is the pod-only container check: no leading
// or trailing whitespace in an image name.
func validateContainersOnlyForPod(cs []api.Container, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, c := range cs {
		if len(c.Image) != len(strings.TrimSpace(c.Image)) {
			errs = append(errs, field.Invalid(p.Index(i).Child("image"), c.Image, "must not have leading or trailing whitespace"))
		}
	}
	return errs
}
