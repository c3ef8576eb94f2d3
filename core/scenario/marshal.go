package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"converge/core/api"
	"converge/core/manifest"
)

// AppendStep adds a step at run time (the page's console, the JS API's
// run): it joins Steps after the steps with the same or an earlier At, and
// Marshal writes it into the scenario's YAML, so a share link replays it.
// Without a duration in the file, Duration becomes 60s after the last step;
// a step after the file's duration extends it to 60s after the step.
// The step must be valid as Parse would read it.
func (s *Scenario) AppendStep(st Step) error {
	if err := s.checkStep(st); err != nil {
		return fmt.Errorf("append step: %w", err)
	}
	st.Line, st.Col = 0, 0
	st.added = &addedStep{prevDuration: s.Duration}
	if s.Duration != defaultDuration(s.Steps) {
		s.durationSet = true // set in code
	}
	i := sort.Search(len(s.Steps), func(i int) bool { return s.Steps[i].At > st.At })
	switch {
	case !s.durationSet:
		s.Duration = defaultDuration(append(slices.Clone(s.Steps), st))
	case st.At > s.Duration:
		s.Duration = min(st.At+Tail, MaxDuration)
		st.added.extended = true
		s.setDurationNode()
	}
	if s.src != nil {
		st.added.node = s.insertStepNode(st)
	}
	s.Steps = slices.Insert(s.Steps, i, st)
	return nil
}

// RemoveStep takes out the step at index i of Steps, which AppendStep
// added (the page's console, the JS API's run): from Steps and from the
// scenario's YAML, and the duration it extended goes back to what it was.
// A step written in the scenario is refused: edit the scenario to remove it.
func (s *Scenario) RemoveStep(i int) error {
	if i < 0 || i >= len(s.Steps) {
		return fmt.Errorf("remove step: no step %d (the scenario has %d)", i, len(s.Steps))
	}
	st := s.Steps[i]
	if st.added == nil {
		return fmt.Errorf("remove step: the step at %s (%s) is written in the scenario, not added at run time: edit the scenario to remove it",
			st.At, st.Action())
	}
	s.Steps = slices.Delete(s.Steps, i, i+1)
	switch {
	case !s.durationSet:
		s.Duration = defaultDuration(s.Steps)
	case st.added.extended && s.Duration == min(st.At+Tail, MaxDuration):
		s.Duration = st.added.prevDuration
		s.setDurationNode()
	}
	if s.src != nil && st.added.node != nil {
		s.removeStepNode(st.added.node)
	}
	return nil
}

// removeStepNode takes node out of src's steps.
func (s *Scenario) removeStepNode(node *yaml.Node) {
	root := s.src.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "steps" {
			continue
		}
		seq := root.Content[i+1]
		for j, n := range seq.Content {
			if n == node {
				seq.Content = slices.Delete(seq.Content, j, j+1)
				if j < len(s.srcSteps) {
					s.srcSteps = slices.Delete(s.srcSteps, j, j+1)
				}
				return
			}
		}
	}
}

// setDurationNode writes Duration into src's duration.
func (s *Scenario) setDurationNode() {
	if s.src == nil {
		return
	}
	root := s.src.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "duration" {
			v := root.Content[i+1]
			v.Kind, v.Tag, v.Style, v.Value, v.Alias, v.Content = yaml.ScalarNode, "!!str", 0, s.Duration.String(), nil, nil
			return
		}
	}
}

// checkStep applies Parse's rules to a step built in code.
func (s *Scenario) checkStep(st Step) error {
	n := 0
	for _, set := range []bool{st.Kubectl != "", len(st.Apply) > 0, st.Fault != nil, st.Expect != nil, len(st.Commit) > 0, st.Load != nil, st.Note != nil} {
		if set {
			n++
		}
	}
	switch {
	case n != 1:
		return errNoAction
	case st.At < 0 || st.At > MaxDuration || st.At%time.Second != 0:
		return fmt.Errorf("at %s: must be a whole number of seconds between 0s and 24h", st.At)
	case strings.ContainsAny(st.Kubectl, "\r\n"):
		return fmt.Errorf("kubectl: must be one line")
	case st.ExpectError != "" && st.Kubectl == "" && len(st.Apply) == 0:
		return fmt.Errorf("expectError: only kubectl and apply steps may expect an error")
	}
	if st.Fault != nil {
		f, err := ParseFault(st.Fault.String())
		if err != nil {
			return fmt.Errorf("fault %s: %w", st.Fault, err)
		}
		if f.IsNodeFault() && !s.hasNode(f.Target) {
			return fmt.Errorf("fault %s: unknown node %q", st.Fault, f.Target)
		}
	}
	if st.Load != nil {
		if _, err := ParseLoad(st.Load.String()); err != nil {
			return fmt.Errorf("load %s: %w", st.Load, err)
		}
	}
	if len(st.Commit) > 0 && s.Cluster.GitOps == nil {
		return errNoGitOps
	}
	if st.Note != nil {
		if err := CheckNote(st.Note.Text); err != nil {
			return fmt.Errorf("note: %w", err)
		}
		if st.Note.Focus != "" {
			if err := CheckFocus(st.Note.Focus); err != nil {
				return fmt.Errorf("note focus: %w", err)
			}
		}
	}
	if st.Expect != nil {
		if _, err := ParseExpect(st.Expect.String()); err != nil {
			return fmt.Errorf("expect %s: %w", st.Expect, err)
		}
	}
	for _, d := range st.Apply {
		if d.Object == nil {
			return fmt.Errorf("apply: no object")
		}
	}
	return nil
}

func (s *Scenario) hasNode(name string) bool {
	for _, n := range s.Cluster.Nodes {
		if n.Name == name {
			return true
		}
	}
	for _, d := range s.Objects {
		if d.Object.GetTypeMeta().Kind == api.KindNode && d.Object.GetObjectMeta().Name == name {
			return true
		}
	}
	return false
}

// insertStepNode puts the step's node into src's steps, after the entries
// with the same or an earlier at.
func (s *Scenario) insertStepNode(st Step) *yaml.Node {
	root := s.src.Content[0]
	var seq *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "steps" {
			continue
		}
		v := root.Content[i+1]
		switch {
		case v.Kind == yaml.AliasNode:
			v, _ = manifest.Expand(v, "")
		case isNull(v):
			v = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		}
		root.Content[i+1] = v
		seq = v
	}
	if seq == nil {
		seq = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		root.Content = append(root.Content, strNode("steps"), seq)
	}
	j := 0
	for i, at := range s.srcSteps {
		if at <= st.At {
			j = i + 1
		}
	}
	j = min(j, len(seq.Content))
	if len(seq.Content) == 0 {
		seq.Style = 0 // steps: [] becomes a block list
	}
	node := stepNode(st)
	seq.Content = slices.Insert(seq.Content, j, node)
	s.srcSteps = slices.Insert(s.srcSteps, min(j, len(s.srcSteps)), st.At)
	return node
}

// Marshal returns the scenario as YAML. A parsed scenario is written from
// its own YAML tree, comments included, with the steps added by AppendStep;
// a plain manifest file comes back wrapped as a scenario (name, objects). A
// Scenario built in code is written from its fields. Parse(Marshal()) gives
// the same scenario. Fields changed directly on a parsed Scenario are not
// written.
func (s *Scenario) Marshal() ([]byte, error) {
	doc := s.src
	if doc == nil {
		doc = s.buildDoc()
	}
	return encode(doc)
}

func encode(doc *yaml.Node) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("marshal scenario: %v", r)
		}
	}()
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	enc.CompactSeqIndent()
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("marshal scenario: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("marshal scenario: %w", err)
	}
	return buf.Bytes(), nil
}

func stepNode(st Step) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	add := func(k string, v *yaml.Node) { m.Content = append(m.Content, strNode(k), v) }
	add("at", strNode(st.At.String()))
	switch {
	case st.Kubectl != "":
		add("kubectl", strNode(st.Kubectl))
	case len(st.Apply) == 1:
		add("apply", objectNode(st.Apply[0]))
	case len(st.Apply) > 1:
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, d := range st.Apply {
			seq.Content = append(seq.Content, objectNode(d))
		}
		add("apply", seq)
	case st.Fault != nil:
		add("fault", strNode(st.Fault.String()))
	case st.Expect != nil:
		add("expect", strNode(st.Expect.String()))
	case len(st.Commit) > 0:
		add("commit", commitNode(st.Commit))
	case st.Load != nil:
		add("load", strNode(st.Load.String()))
	case st.Note != nil:
		add("note", strNode(st.Note.Text))
		if st.Note.Pause {
			add("pause", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
		}
		if st.Note.Focus != "" {
			add("focus", strNode(st.Note.Focus))
		}
	}
	if st.ExpectError != "" {
		add("expectError", strNode(st.ExpectError))
	}
	return m
}

// objectNode is a manifest's YAML: its source node when it has one, or the
// object's JSON form without status.
func objectNode(d manifest.Doc) *yaml.Node {
	if d.Node != nil {
		n, _ := manifest.Expand(d.Node, "")
		return n
	}
	b, err := json.Marshal(d.Object)
	var n yaml.Node
	if err != nil || yaml.Unmarshal(b, &n) != nil || len(n.Content) == 0 {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	}
	root := n.Content[0]
	if root.Kind == yaml.MappingNode {
		out := root.Content[:0]
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value != "status" {
				out = append(out, root.Content[i], root.Content[i+1])
			}
		}
		root.Content = out
	}
	blockStyle(root)
	return root
}

// blockStyle clears the JSON (flow, quoted) styles of a tree; the encoder
// quotes the strings that need it.
func blockStyle(n *yaml.Node) {
	n.Style = 0
	n.Line, n.Column = 0, 0
	for _, c := range n.Content {
		blockStyle(c)
	}
}

// buildDoc writes a scenario built in code.
func (s *Scenario) buildDoc() *yaml.Node {
	root := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	add := func(k string, v *yaml.Node) { root.Content = append(root.Content, strNode(k), v) }
	add("name", strNode(s.Name))
	if s.Title != "" {
		add("title", strNode(s.Title))
	}
	if s.Description != "" {
		add("description", strNode(s.Description))
	}
	if s.Seed != DefaultSeed {
		add("seed", intNode(strconv.FormatUint(s.Seed, 10)))
	}
	if s.durationSet || s.Duration != defaultDuration(s.Steps) {
		add("duration", strNode(s.Duration.String()))
	}
	if c := clusterNode(s.Cluster); c != nil {
		add("cluster", c)
	}
	if objects := s.writtenObjects(); len(objects) > 0 {
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, d := range objects {
			seq.Content = append(seq.Content, objectNode(d))
		}
		add("objects", seq)
	}
	if v := variantsNode(s.Variants); v != nil {
		add("variants", v)
	}
	if len(s.Steps) > 0 {
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, st := range s.Steps {
			seq.Content = append(seq.Content, stepNode(st))
		}
		add("steps", seq)
	}
	return &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}
}

func intNode(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: v} }

func boolNode(v bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v)}
}

func mapNode(pairs ...any) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i+1 < len(pairs); i += 2 {
		m.Content = append(m.Content, strNode(pairs[i].(string)), pairs[i+1].(*yaml.Node))
	}
	return m
}

// clusterNode writes what differs from DefaultCluster, or nil.
func clusterNode(c Cluster) *yaml.Node {
	def := DefaultCluster()
	m := mapNode()
	if !reflect.DeepEqual(c.Nodes, def.Nodes) {
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, n := range c.Nodes {
			item := mapNode("name", strNode(n.Name), "cpu", strNode(n.CPU), "memory", strNode(n.Memory),
				"pods", intNode(strconv.Itoa(n.Pods)))
			item.Style = yaml.FlowStyle
			seq.Content = append(seq.Content, item)
		}
		m.Content = append(m.Content, strNode("nodes"), seq)
	}
	if c.Timings != def.Timings {
		t := mapNode()
		for _, f := range []struct {
			name      string
			got, want time.Duration
		}{
			{"nodeMonitorGracePeriod", c.Timings.NodeMonitorGracePeriod, def.Timings.NodeMonitorGracePeriod},
			{"nodeMonitorPeriod", c.Timings.NodeMonitorPeriod, def.Timings.NodeMonitorPeriod},
			{"podEvictionTimeout", c.Timings.PodEvictionTimeout, def.Timings.PodEvictionTimeout},
			{"eventTTL", c.Timings.EventTTL, def.Timings.EventTTL},
		} {
			// The two older timings are always written; the newer ones when
			// set (a Timings built in code may leave them zero) and not the
			// default.
			if f.name == "nodeMonitorGracePeriod" || f.name == "podEvictionTimeout" || (f.got != 0 && f.got != f.want) {
				t.Content = append(t.Content, strNode(f.name), strNode(f.got.String()))
			}
		}
		m.Content = append(m.Content, strNode("timings"), t)
	}
	if len(c.Images) > 0 {
		images := mapNode()
		for _, name := range c.ImageNames() {
			im := c.Images[name]
			spec := mapNode("pullSeconds", intNode(strconv.Itoa(int(im.PullSeconds))),
				"startSeconds", intNode(strconv.Itoa(int(im.StartSeconds))),
				"readySeconds", intNode(strconv.Itoa(int(im.ReadySeconds))))
			optional := func(key string, v int32) {
				if v > 0 {
					spec.Content = append(spec.Content, strNode(key), intNode(strconv.Itoa(int(v))))
				}
			}
			optional("crashAfterSeconds", im.CrashAfterSeconds)
			if im.PullFail {
				spec.Content = append(spec.Content, strNode("pull"), strNode("fail"))
			}
			optional("pullFailures", im.PullFailures)
			if im.NeverReady {
				spec.Content = append(spec.Content, strNode("neverReady"), boolNode(true))
			}
			optional("unreadyAfterSeconds", im.UnreadyAfterSeconds)
			optional("readinessFlapSeconds", im.ReadinessFlapSeconds)
			optional("livenessFailAfterSeconds", im.LivenessFailAfterSeconds)
			optional("shutdownSeconds", im.ShutdownSeconds)
			optional("exitCode", im.ExitCode)
			images.Content = append(images.Content, strNode(name), spec)
		}
		m.Content = append(m.Content, strNode("images"), images)
	}
	if len(m.Content) == 0 {
		return nil
	}
	return m
}
