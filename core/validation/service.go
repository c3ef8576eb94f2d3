package validation

import (
	"converge/core/api"
	"converge/core/validation/field"
)

var (
	serviceTypes            = []string{"ClusterIP", "ExternalName", "LoadBalancer", "NodePort"}
	sessionAffinities       = []string{"ClientIP", "None"}
	internalTrafficPolicies = []string{"Cluster", "Local"}
)

// kubeletPort may not be exposed by a LoadBalancer Service.
const kubeletPort = 10250

// ValidateService validates a v1 Service on create (old == nil) or update
// (ValidateService / ValidateServiceUpdate): a DNS-1035 label name, ports
// (required unless headless; 1-65535; named and unique when several), a
// valid selector, a supported type and sessionAffinity. The IP-family and
// load-balancer fields Converge does not model are not checked, nor is the
// immutability of an allocated clusterIP.
func ValidateService(s, old *api.Service) field.ErrorList {
	var errs field.ErrorList
	meta := field.NewPath("metadata")
	if old != nil {
		errs = validateObjectMetaUpdate(&s.ObjectMeta, &old.ObjectMeta, meta)
	}
	errs = append(errs, validateObjectMeta(&s.ObjectMeta, true, nameIsDNS1035Label, meta)...)
	spec := s.Spec
	p := field.NewPath("spec")
	headless := isHeadlessService(s)
	if len(spec.Ports) == 0 && !headless && spec.Type != "ExternalName" {
		errs = append(errs, field.Required(p.Child("ports"), ""))
	}
	switch spec.Type {
	case "LoadBalancer":
		for i, port := range spec.Ports {
			if port.Port == kubeletPort {
				errs = append(errs, field.Invalid(p.Child("ports").Index(i), port.Port, "may not expose port 10250 externally since it is used by kubelet"))
			}
		}
		if headless {
			errs = append(errs, field.Invalid(p.Child("clusterIPs").Index(0), "None", "may not be set to 'None' for LoadBalancer services"))
		}
	case "NodePort":
		if headless {
			errs = append(errs, field.Invalid(p.Child("clusterIPs").Index(0), "None", "may not be set to 'None' for NodePort services"))
		}
	case "ExternalName":
		if spec.ClusterIP != "" || len(spec.ClusterIPs) > 0 {
			errs = append(errs, field.Forbidden(p.Child("clusterIPs"), "may not be set for ExternalName services"))
		}
		// Converge does not model spec.externalName, which ExternalName needs.
		errs = append(errs, field.Required(p.Child("externalName"), ""))
	}
	names := map[string]bool{}
	for i := range spec.Ports {
		errs = append(errs, validateServicePort(&spec.Ports[i], len(spec.Ports) > 1, names, p.Child("ports").Index(i))...)
	}
	if spec.Selector != nil {
		errs = append(errs, validateLabels(spec.Selector, p.Child("selector"))...)
	}
	errs = append(errs, validateEnum(spec.SessionAffinity, sessionAffinities, p.Child("sessionAffinity"))...)
	errs = append(errs, validateEnum(spec.Type, serviceTypes, p.Child("type"))...)
	if spec.Type == "ClusterIP" {
		for i, port := range spec.Ports {
			if port.NodePort != 0 {
				errs = append(errs, field.Forbidden(p.Child("ports").Index(i).Child("nodePort"), "may not be used when `type` is 'ClusterIP'"))
			}
		}
	}
	errs = append(errs, duplicateServicePorts(spec.Ports, p.Child("ports"))...)
	if spec.InternalTrafficPolicy != "" {
		errs = append(errs, validateEnum(spec.InternalTrafficPolicy, internalTrafficPolicies, p.Child("internalTrafficPolicy"))...)
	}
	return errs
}

// isHeadlessService: type ClusterIP with clusterIP None.
func isHeadlessService(s *api.Service) bool {
	return s.Spec.Type == "ClusterIP" && (s.Spec.ClusterIP == "None" || len(s.Spec.ClusterIPs) > 0 && s.Spec.ClusterIPs[0] == "None")
}

// validateServicePort is validateServicePort.
func validateServicePort(sp *api.ServicePort, requireName bool, names map[string]bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if requireName && sp.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	} else if sp.Name != "" {
		errs = append(errs, validateDNS1123Label(sp.Name, p.Child("name"))...)
		if names[sp.Name] {
			errs = append(errs, field.Duplicate(p.Child("name"), sp.Name))
		} else {
			names[sp.Name] = true
		}
	}
	for _, msg := range IsValidPortNum(int(sp.Port)) {
		errs = append(errs, field.Invalid(p.Child("port"), sp.Port, msg))
	}
	errs = append(errs, validateEnum(sp.Protocol, portProtocols, p.Child("protocol"))...)
	return append(errs, validatePortNumOrName(derefIntOrString(sp.TargetPort), p.Child("targetPort"))...)
}

// duplicateServicePorts reports node ports and ports used twice for a protocol.
func duplicateServicePorts(ports []api.ServicePort, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	type key struct {
		protocol string
		port     int32
	}
	nodePorts := map[key]bool{}
	for i, port := range ports {
		if port.NodePort == 0 {
			continue
		}
		k := key{port.Protocol, port.NodePort}
		if nodePorts[k] {
			errs = append(errs, field.Duplicate(p.Index(i).Child("nodePort"), port.NodePort))
		}
		nodePorts[k] = true
	}
	seen := map[key]bool{}
	for i, port := range ports {
		k := key{port.Protocol, port.Port}
		if seen[k] {
			errs = append(errs, field.Duplicate(p.Index(i), internalServicePort{Protocol: port.Protocol, Port: port.Port}))
		}
		seen[k] = true
	}
	return errs
}
