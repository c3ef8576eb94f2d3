package validation

import (
	"fmt"

	"converge/core/api"
	"converge/core/labels"
)

// Warnings returns the warnings the API server sends back with a create of
// obj (the registry strategies' WarningsOnCreate), which kubectl prints as
// "Warning: <text>". A Deployment, ReplicaSet or Pod whose name is a valid
// subdomain but not a DNS label gets, for example,
//
//	metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]
func Warnings(obj api.Object) []string {
	var tmpl string
	switch obj.(type) {
	case *api.Deployment, *api.ReplicaSet:
		tmpl = "metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: %v"
	case *api.Pod:
		tmpl = "metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: %v"
	default:
		return nil
	}
	name := obj.GetObjectMeta().Name
	if name == "" || len(labels.IsDNS1123Subdomain(name)) != 0 {
		return nil // invalid names are errors, not warnings
	}
	if msgs := labels.IsDNS1123Label(name); len(msgs) != 0 {
		return []string{fmt.Sprintf(tmpl, msgs)}
	}
	return nil
}
