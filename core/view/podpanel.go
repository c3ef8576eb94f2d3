package view

import (
	"sort"

	"converge/core/api"
	"converge/core/kubectl"
	"converge/core/sim"
	"converge/core/store"
)

// PodPanel is what opening a pod tile shows, at the current second, as
// kubectl would print it: `kubectl describe pod`, `kubectl get pod -o
// yaml`, the pod's events and its owner chain (Pod → ReplicaSet →
// Deployment).
type PodPanel struct {
	Name string
	// Title is the tile's hover text (PodTitle).
	Title string
	// Describe, YAML are kubectl's output for the pod.
	Describe, YAML string
	// Events are the pod's events, newest first.
	Events []EventRow
	// Owners is the chain from the pod up: "pod/web-x2kq",
	// "replicaset/web-5d9c", "deployment/web".
	Owners []string
}

// PodDetails builds the panel of the pod named name in namespace ns; nil
// when the pod does not exist at this second.
func PodDetails(s *sim.Sim, ns, name string) *PodPanel {
	st := s.Store()
	p, err := st.GetPod(ns, name)
	if err != nil {
		return nil
	}
	env := s.Env()
	flag := " -n " + ns
	out := &PodPanel{Name: name, Title: PodTitle(s, name)}
	if r := kubectl.Run(env, "describe pod "+name+flag); r.Error == "" {
		out.Describe = r.Output
	} else {
		out.Describe = r.Error
	}
	if r := kubectl.Run(env, "get pod "+name+flag+" -o yaml"); r.Error == "" {
		out.YAML = r.Output
	} else {
		out.YAML = r.Error
	}
	now := s.Now()
	for _, e := range st.Events() {
		if e.InvolvedObject.Kind == api.KindPod && e.InvolvedObject.Name == name && e.InvolvedObject.UID == p.UID {
			out.Events = append(out.Events, eventRow(e, now))
		}
	}
	sort.SliceStable(out.Events, func(i, j int) bool { return out.Events[i].T > out.Events[j].T })
	out.Owners = ownerChain(st, p)
	return out
}

// ownerChain follows controller references up from p.
func ownerChain(st *store.Store, p *api.Pod) []string {
	chain := []string{store.ShortRef(api.KindPod, p.Name)}
	meta := &p.ObjectMeta
	for range 8 {
		ref := api.GetControllerOf(meta)
		if ref == nil {
			break
		}
		o, ok := st.ByUID(ref.UID)
		if !ok {
			chain = append(chain, store.ShortRef(ref.Kind, ref.Name)+" (gone)")
			break
		}
		chain = append(chain, store.ShortRef(ref.Kind, ref.Name))
		meta = o.GetObjectMeta()
	}
	return chain
}
