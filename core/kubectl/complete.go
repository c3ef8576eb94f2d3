package kubectl

import (
	"sort"
	"strings"

	"converge/core/api"
)

// Complete returns the words that can replace the last word of line (the
// empty word when line ends with a blank): command and subcommand names,
// flags, flag values, resource types, TYPE/NAME forms and object names.
func Complete(env *Env, line string) []string {
	words, err := Split(line)
	if err != nil {
		return nil
	}
	current := ""
	if line != "" && !strings.ContainsAny(line[len(line)-1:], " \t") && len(words) > 0 {
		current, words = words[len(words)-1], words[:len(words)-1]
	}
	if len(words) > 0 && words[0] == "kubectl" {
		words = words[1:]
	}
	var st storeReader
	if env != nil && env.Store != nil {
		st = storeReader{env: env}
	}
	return filterPrefix(candidates(words, current, st), current)
}

// storeReader lists object names for completion; the zero value has none.
type storeReader struct{ env *Env }

func (s storeReader) names(kind string) []string {
	if s.env == nil {
		return nil
	}
	var out []string
	for _, o := range s.env.Store.List(kind) {
		m := o.GetObjectMeta()
		if m.Namespace == "" || m.Namespace == api.NamespaceDefault {
			out = append(out, m.Name)
		}
	}
	return out
}

func candidates(words []string, current string, st storeReader) []string {
	if commandWord(words, every(len(words))) < 0 {
		if strings.HasPrefix(current, "-") {
			return flagNames(globalFlags)
		}
		var out []string
		for _, c := range commands {
			out = append(out, c.path[0])
		}
		return out
	}
	spec, restAt, pe := findPath(words)
	if pe != nil {
		return nil
	}
	rest := pick(words, restAt)
	if len(spec.subs) > 0 && commandWord(rest, every(len(rest))) < 0 && !strings.HasPrefix(current, "-") {
		var out []string
		for _, s := range spec.subs {
			out = append(out, s.path[len(s.path)-1])
		}
		if spec.run == nil {
			return out
		}
		if len(rest) == 0 {
			return out
		}
	}
	specs := append(append([]flagSpec{}, spec.flags...), globalFlags...)
	if strings.HasPrefix(current, "--") && strings.Contains(current, "=") {
		name, _, _ := strings.Cut(current[2:], "=")
		var out []string
		for _, v := range flagValues(name, st) {
			out = append(out, "--"+name+"="+v)
		}
		return out
	}
	if strings.HasPrefix(current, "-") {
		return flagNames(specs)
	}
	if len(rest) > 0 {
		if prev := rest[len(rest)-1]; strings.HasPrefix(prev, "-") && !strings.Contains(prev, "=") {
			if f := lookupFlag(specs, prev); f != nil && f.noOpt == "" {
				return flagValues(f.name, st)
			}
		}
	}
	return positional(spec, positionalArgs(rest, specs), current, st)
}

// positionalArgs drops flags (and the values of flags that take one).
func positionalArgs(words []string, specs []flagSpec) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") && len(w) > 1 {
			if f := lookupFlag(specs, w); f != nil && f.noOpt == "" && !strings.Contains(w, "=") && len(w) > 2 && !(len(w) > 2 && w[1] != '-') {
				i++
			} else if f != nil && f.noOpt == "" && len(w) == 2 {
				i++
			}
			continue
		}
		out = append(out, w)
	}
	return out
}

func lookupFlag(specs []flagSpec, w string) *flagSpec {
	name := strings.TrimLeft(w, "-")
	name, _, _ = strings.Cut(name, "=")
	for i := range specs {
		if strings.HasPrefix(w, "--") && specs[i].name == name || !strings.HasPrefix(w, "--") && specs[i].short == name {
			return &specs[i]
		}
	}
	return nil
}

func flagNames(specs []flagSpec) []string {
	var out []string
	for _, s := range specs {
		out = append(out, "--"+s.name)
	}
	return out
}

func flagValues(name string, st storeReader) []string {
	switch name {
	case "output":
		return []string{"json", "name", "wide", "yaml"}
	case "namespace":
		return []string{api.NamespaceDefault}
	case "type":
		return []string{"json", "merge", "strategic"}
	case "cascade":
		return []string{"background", "foreground", "orphan"}
	case "dry-run":
		return []string{"client", "none", "server"}
	}
	return nil
}

// positional completes resource types, TYPE/NAME and names.
func positional(spec *cmdSpec, args []string, current string, st storeReader) []string {
	cmd := strings.Join(spec.path, " ")
	switch cmd {
	case "cordon", "uncordon", "drain", "top node":
		return st.names(api.KindNode)
	case "top pod":
		return st.names(api.KindPod)
	case "create deployment", "create configmap", "version", "api-resources", "apply", "create":
		return nil
	}
	types := typeNames()
	switch {
	case strings.HasPrefix(cmd, "rollout"):
		types = typeNames(api.KindDeployment)
	case cmd == "scale", cmd == "autoscale":
		types = typeNames(api.KindDeployment, api.KindReplicaSet)
	case strings.HasPrefix(cmd, "set"):
		types = typeNames(api.KindDeployment, api.KindReplicaSet, api.KindPod)
	}
	if t, _, ok := strings.Cut(current, "/"); ok {
		rt, found := api.LookupResource(t)
		if !found {
			return nil
		}
		var out []string
		for _, n := range st.names(rt.Kind) {
			out = append(out, t+"/"+n)
		}
		return out
	}
	if len(args) == 0 {
		if i := strings.LastIndexByte(current, ','); i >= 0 {
			var out []string
			for _, t := range types {
				out = append(out, current[:i+1]+t)
			}
			return out
		}
		return types
	}
	if strings.Contains(args[0], "/") {
		return setImageContainers(cmd, args, current, st)
	}
	rt, ok := api.LookupResource(strings.Split(args[0], ",")[0])
	if !ok {
		return nil
	}
	if len(args) >= 2 && (cmd == "set image" || cmd == "set env") {
		return setImageContainers(cmd, append([]string{rt.Plural + "/" + args[1]}, args[2:]...), current, st)
	}
	return st.names(rt.Kind)
}

// setImageContainers offers CONTAINER= for set image.
func setImageContainers(cmd string, args []string, current string, st storeReader) []string {
	if cmd != "set image" || st.env == nil {
		return nil
	}
	t, name, _ := strings.Cut(args[0], "/")
	rt, ok := api.LookupResource(t)
	if !ok {
		return nil
	}
	o, err := st.env.Store.Get(rt.Kind, api.NamespaceDefault, name)
	if err != nil {
		return nil
	}
	spec, ok := podSpecOf(o)
	if !ok {
		return nil
	}
	var out []string
	for _, c := range spec.Containers {
		out = append(out, c.Name+"=")
	}
	return out
}

func filterPrefix(words []string, prefix string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range words {
		if strings.HasPrefix(w, prefix) && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}
