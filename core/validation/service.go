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
	meta := root("metadata")
	if old != nil {
		errs = validateObjectMetaUpdate(&s.ObjectMeta, &old.ObjectMeta, &meta)
	}
	errs = append(errs, validateObjectMeta(&s.ObjectMeta, true, nameIsDNS1035Label, &meta)...)
	spec := s.Spec
	p := root("spec")
	ports, ips := p.child("ports"), p.child("clusterIPs")
	headless := isHeadlessService(s)
	if len(spec.Ports) == 0 && !headless && spec.Type != "ExternalName" {
		errs = append(errs, ports.required(""))
	}
	switch spec.Type {
	case "LoadBalancer":
		for i, port := range spec.Ports {
			if port.Port == kubeletPort {
				errs = append(errs, ports.at(i).invalid(port.Port, "may not expose port 10250 externally since it is used by kubelet"))
			}
		}
		if headless {
			errs = append(errs, ips.at(0).invalid("None", "may not be set to 'None' for LoadBalancer services"))
		}
	case "NodePort":
		if headless {
			errs = append(errs, ips.at(0).invalid("None", "may not be set to 'None' for NodePort services"))
		}
	case "ExternalName":
		if spec.ClusterIP != "" || len(spec.ClusterIPs) > 0 {
			errs = append(errs, ips.forbidden("may not be set for ExternalName services"))
		}
		// Converge does not model spec.externalName, which ExternalName needs.
		errs = append(errs, p.child("externalName").required(""))
	}
	names := map[string]bool{}
	for i := range spec.Ports {
		pp := ports.at(i)
		errs = append(errs, validateServicePort(&spec.Ports[i], len(spec.Ports) > 1, names, &pp)...)
	}
	if spec.Selector != nil {
		sp := p.child("selector")
		errs = append(errs, validateLabels(spec.Selector, &sp)...)
	}
	errs = append(errs, validateEnum(spec.SessionAffinity, sessionAffinities, &p, "sessionAffinity")...)
	errs = append(errs, validateEnum(spec.Type, serviceTypes, &p, "type")...)
	if spec.Type == "ClusterIP" {
		for i, port := range spec.Ports {
			if port.NodePort != 0 {
				pp := ports.at(i)
				errs = append(errs, pp.child("nodePort").forbidden("may not be used when `type` is 'ClusterIP'"))
			}
		}
	}
	errs = append(errs, duplicateServicePorts(spec.Ports, &ports)...)
	if spec.InternalTrafficPolicy != "" {
		errs = append(errs, validateEnum(spec.InternalTrafficPolicy, internalTrafficPolicies, &p, "internalTrafficPolicy")...)
	}
	return errs
}

// isHeadlessService: type ClusterIP with clusterIP None.
func isHeadlessService(s *api.Service) bool {
	return s.Spec.Type == "ClusterIP" && (s.Spec.ClusterIP == "None" || len(s.Spec.ClusterIPs) > 0 && s.Spec.ClusterIPs[0] == "None")
}

// validateServicePort is validateServicePort.
func validateServicePort(sp *api.ServicePort, requireName bool, names map[string]bool, p *path) field.ErrorList {
	var errs field.ErrorList
	np, tp := p.child("name"), p.child("targetPort")
	if requireName && sp.Name == "" {
		errs = append(errs, np.required(""))
	} else if sp.Name != "" {
		errs = append(errs, validateDNS1123Label(sp.Name, &np)...)
		if names[sp.Name] {
			errs = append(errs, np.duplicate(sp.Name))
		} else {
			names[sp.Name] = true
		}
	}
	for _, msg := range IsValidPortNum(int(sp.Port)) {
		errs = append(errs, p.child("port").invalid(sp.Port, msg))
	}
	errs = append(errs, validateEnum(sp.Protocol, portProtocols, p, "protocol")...)
	return append(errs, validatePortNumOrName(derefIntOrString(sp.TargetPort), &tp)...)
}

// duplicateServicePorts reports node ports and ports used twice for a protocol.
func duplicateServicePorts(ports []api.ServicePort, p *path) field.ErrorList {
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
			pp := p.at(i)
			errs = append(errs, pp.child("nodePort").duplicate(port.NodePort))
		}
		nodePorts[k] = true
	}
	seen := map[key]bool{}
	for i, port := range ports {
		k := key{port.Protocol, port.Port}
		if seen[k] {
			errs = append(errs, p.at(i).duplicate(internalServicePort{Protocol: port.Protocol, Port: port.Port}))
		}
		seen[k] = true
	}
	return errs
}
