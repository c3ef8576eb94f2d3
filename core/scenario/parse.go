package scenario

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"converge/core/api"
	"converge/core/kubectl"
	"converge/core/manifest"
	"converge/core/validation"
)

// MaxFileSize bounds a scenario, from any source: a file, standard input,
// a share link (which MaxShareSize bounds further), the JS API's load; and
// with it what the file's aliases expand to (manifest.MaxFileSize, the one
// limit of both).
const MaxFileSize = manifest.MaxFileSize

// ErrTooLarge is the error of an input larger than MaxFileSize.
var ErrTooLarge = fmt.Errorf("the file is too large: a scenario may have at most %d MiB", MaxFileSize>>20)

// ReadAll reads a scenario from r: at most MaxFileSize bytes and one more,
// to know there are too many (ErrTooLarge), so that a huge input is never
// held in memory.
func ReadAll(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, ErrTooLarge
	}
	return data, nil
}

// rawScenario is the file's shape; fields whose value position matters for
// later checks are kept as nodes.
type rawScenario struct {
	Name        *yaml.Node   `json:"name"`
	Title       string       `json:"title"`
	Description string       `json:"description"`
	Seed        *uint64      `json:"seed"`
	Duration    *yaml.Node   `json:"duration"`
	Cluster     *rawCluster  `json:"cluster"`
	Objects     []*yaml.Node `json:"objects"`
	Steps       []rawStep    `json:"steps"`
	Variants    []rawVariant `json:"variants"`
}

type rawCluster struct {
	Nodes   []rawNode           `json:"nodes"`
	Timings *rawTimings         `json:"timings"`
	Images  map[string]rawImage `json:"images"`
	GitOps  *rawGitOps          `json:"gitops"`
}

type rawNode struct {
	Name   *yaml.Node    `json:"name"`
	CPU    *api.Quantity `json:"cpu"`
	Memory *api.Quantity `json:"memory"`
	Pods   *int          `json:"pods"`
}

type rawTimings struct {
	NodeMonitorGracePeriod *yaml.Node `json:"nodeMonitorGracePeriod"`
	NodeMonitorPeriod      *yaml.Node `json:"nodeMonitorPeriod"`
	PodEvictionTimeout     *yaml.Node `json:"podEvictionTimeout"`
	EventTTL               *yaml.Node `json:"eventTTL"`
}

type rawImage struct {
	PullSeconds              *int32 `json:"pullSeconds"`
	StartSeconds             *int32 `json:"startSeconds"`
	ReadySeconds             *int32 `json:"readySeconds"`
	CrashAfterSeconds        *int32 `json:"crashAfterSeconds"`
	Pull                     string `json:"pull"`
	PullFailures             *int32 `json:"pullFailures"`
	NeverReady               bool   `json:"neverReady"`
	UnreadyAfterSeconds      *int32 `json:"unreadyAfterSeconds"`
	ReadinessFlapSeconds     *int32 `json:"readinessFlapSeconds"`
	LivenessFailAfterSeconds *int32 `json:"livenessFailAfterSeconds"`
	ShutdownSeconds          *int32 `json:"shutdownSeconds"`
	ExitCode                 *int32 `json:"exitCode"`
}

type rawStep struct {
	At          *yaml.Node `json:"at"`
	Kubectl     *yaml.Node `json:"kubectl"`
	Apply       *yaml.Node `json:"apply"`
	Fault       *yaml.Node `json:"fault"`
	Expect      *yaml.Node `json:"expect"`
	Commit      *yaml.Node `json:"commit"`
	Load        *yaml.Node `json:"load"`
	ExpectError *yaml.Node `json:"expectError"`
	Note        *yaml.Node `json:"note"`
	Pause       *yaml.Node `json:"pause"`
	Focus       *yaml.Node `json:"focus"`
}

// Parse parses a scenario, or a plain manifest file (one or several objects
// with apiVersion and kind), which becomes a scenario named after the file
// with the default cluster. It returns nil and every problem when the input
// is invalid; otherwise the scenario and its notes.
//
// Parse is Converge's one validation policy: `converge validate`, `converge
// run`, `converge kubectl --scenario`, the page's editor and the JS API's
// load and validate all call it, so they cannot disagree. Beyond the file's
// shape it checks, as the run would find out later:
//   - every object as the API server validates a create;
//   - every apply step's objects as updates of the objects they replace,
//     such as a Deployment's immutable selector (see checkUpdates);
//   - every kubectl step with the kubectl subset's parser: an unknown
//     command, an unknown flag, a flag value of the wrong type;
//   - the size of the input (MaxFileSize).
//
// A step with expectError is meant to fail, so its action is read but not
// validated. Each problem is at its line and column.
func Parse(data []byte, file string) (*Scenario, Problems) {
	return parse(data, file, newColumns(data))
}

// parse is Parse with the file's column mapper (the tests read what it
// scanned).
func parse(data []byte, file string, cols *columns) (*Scenario, Problems) {
	if len(data) > MaxFileSize {
		return nil, Problems{{File: file, Message: ErrTooLarge.Error()}}
	}
	docs, probs := manifest.ParseDocuments(data, file)
	if probs.HasErrors() {
		return nil, probs
	}
	var s *Scenario
	switch {
	case len(docs) == 0:
		probs = Problems{{File: file, Line: 1, Col: 1, Message: "the file holds no scenario and no objects"}}
	case len(docs) == 1 && !isManifest(docs[0]):
		s, probs = parseScenario(docs[0], file, cols)
	default:
		s, probs = parseManifests(docs, file)
	}
	probs.Sort()
	if probs.HasErrors() {
		return nil, probs
	}
	s.Notes = probs
	return s, probs
}

func isManifest(doc *yaml.Node) bool {
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i].Value; k == "apiVersion" || k == "kind" {
			return true
		}
	}
	return false
}

// parser collects the problems of one file.
type parser struct {
	// cols places problems inside quoted strings at their column.
	cols  *columns
	file  string
	probs Problems
	pos   manifest.Positions
	// nodes are the names faults may refer to.
	nodes map[string]bool
	// noValidate is set while the actions of a step with expectError are read.
	noValidate bool
}

func (p *parser) problem(pos manifest.Position, format string, args ...any) {
	p.probs = append(p.probs, Problem{File: p.file, Line: max(pos.Line, 1), Col: max(pos.Col, 1), Message: fmt.Sprintf(format, args...)})
}

func nodePos(n *yaml.Node) manifest.Position {
	return manifest.Position{Line: max(n.Line, 1), Col: max(n.Column, 1)}
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

// str reads a string scalar at path.
func (p *parser) str(n *yaml.Node, path string) (string, bool) {
	if isNull(n) {
		return "", true
	}
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case "!!str", "!!timestamp":
			return n.Value, true
		case "!!int", "!!float", "!!bool":
			p.problem(nodePos(n), "%s: must be a string; quote it: %s", path, strconv.Quote(n.Value))
			return "", false
		}
	}
	kind := "a mapping"
	if n.Kind == yaml.SequenceNode {
		kind = "a list"
	} else if n.Kind == yaml.ScalarNode {
		kind = "a value tagged " + n.ShortTag()
	}
	p.problem(nodePos(n), "cannot decode %s into %s (a string)", kind, path)
	return "", false
}

// duration reads a Go duration (90s, 5m, 1h30m): whole seconds, at most 24h,
// greater than 0 unless zeroOK.
func (p *parser) duration(n *yaml.Node, path string, zeroOK bool) (time.Duration, bool) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!int" && n.Value != "0" {
		// Suggest N seconds only when that is a duration Parse accepts.
		if secs, err := strconv.ParseInt(n.Value, 10, 64); err == nil && secs > 0 && secs <= int64(MaxDuration/time.Second) {
			p.problem(nodePos(n), "%s: %s is a number; write a duration with a unit, such as %ss", path, n.Value, n.Value)
		} else {
			p.problem(nodePos(n), "%s: %s is a number; write a duration with a unit, at most 24h", path, n.Value)
		}
		return 0, false
	}
	var s string
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!int" {
		s = n.Value
	} else if v, ok := p.str(n, path); ok {
		s = v
	} else {
		return 0, false
	}
	d, err := time.ParseDuration(s)
	var msg string
	switch {
	case err != nil && DurationOutOfRange(s):
		msg = fmt.Sprintf("%s is longer than the maximum of 24h", s)
	case err != nil:
		msg = fmt.Sprintf("invalid duration %q; use Go syntax such as 90s, 5m or 1h30m", s)
	case d < 0:
		msg = fmt.Sprintf("%s must not be negative", s)
	case d == 0 && !zeroOK:
		msg = "must be greater than 0"
	case d > MaxDuration:
		msg = fmt.Sprintf("%s is longer than the maximum of 24h", s)
	case d%time.Second != 0:
		msg = fmt.Sprintf("%s is not a whole number of seconds", s)
	}
	if msg != "" {
		p.problem(nodePos(n), "%s: %s", path, msg)
		return 0, false
	}
	return d, true
}

// durationSyntaxExpr is the syntax time.ParseDuration reads: a sign, then
// one or more decimal numbers each with a unit. isDurationSyntax is it
// written out, as the page's wasm links no regexp (docs/performance.md;
// parse_test.go checks one against the other).
const durationSyntaxExpr = `^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$`

// durationUnits are the units, the two-byte ones (and µ, μ) first: after a
// unit comes a digit or a dot, so the longest unit that fits is the one.
var durationUnits = []string{"ns", "us", "µs", "μs", "ms", "s", "m", "h"}

func isDurationSyntax(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	digits := func(s string) int {
		n := 0
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		return n
	}
	if s == "" {
		return false
	}
	for s != "" {
		// (\d+(\.\d*)?|\.\d+)
		n := digits(s)
		if n > 0 {
			s = s[n:]
			if s != "" && s[0] == '.' {
				s = s[1+digits(s[1:]):]
			}
		} else if s != "" && s[0] == '.' && digits(s[1:]) > 0 {
			s = s[1+digits(s[1:]):]
		} else {
			return false
		}
		unit := ""
		for _, u := range durationUnits {
			if strings.HasPrefix(s, u) {
				unit = u
				break
			}
		}
		if unit == "" {
			return false
		}
		s = s[len(unit):]
	}
	return true
}

// DurationOutOfRange reports whether s is written in Go's duration syntax
// but is more than a time.Duration holds (about 290 years), which
// time.ParseDuration refuses as "invalid": 99999999h is too long, not
// misspelled.
func DurationOutOfRange(s string) bool {
	_, err := time.ParseDuration(s)
	return err != nil && isDurationSyntax(s)
}

// name reads the required name field of parent (a path, "" at the top).
func (p *parser) name(n *yaml.Node, parent string) (string, bool) {
	path := "name"
	if parent != "" {
		path = parent + ".name"
	}
	if n == nil {
		if parent == "" {
			p.problem(p.pos.Lookup(""), "missing required field \"name\"")
		} else {
			p.problem(p.pos.Lookup(parent), "%s: missing required field \"name\"", parent)
		}
		return "", false
	}
	s, ok := p.str(n, path)
	if !ok {
		return "", false
	}
	if msg := nameError(s); msg != "" {
		p.problem(nodePos(n), "%s: invalid name %q: %s", path, s, msg)
		return "", false
	}
	return s, true
}

func parseScenario(doc *yaml.Node, file string, cols *columns) (*Scenario, Problems) {
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, Problems{{File: file, Line: max(root.Line, 1), Col: max(root.Column, 1),
			Message: "a scenario must be a mapping with name, cluster, objects and steps, or a manifest with apiVersion and kind"}}
	}
	var raw rawScenario
	pos, probs := manifest.DecodeInto(doc, &raw, file)
	p := &parser{file: file, probs: probs, pos: pos, nodes: map[string]bool{}, cols: cols}
	s := &Scenario{src: doc, Title: raw.Title, Description: raw.Description, Seed: DefaultSeed}
	s.Name, _ = p.name(raw.Name, "")
	if raw.Seed != nil {
		s.Seed = *raw.Seed
	}
	s.Cluster = p.cluster(raw.Cluster)
	before := len(p.probs.Errors())
	s.Objects = p.objects(raw.Objects)
	p.checkReplicas(s.Objects, "the objects ask for")
	p.selectVariants(s, raw.Variants, len(p.probs.Errors()) == before)
	for _, n := range s.Cluster.Nodes {
		p.nodes[n.Name] = true
	}
	for _, d := range s.Objects {
		if d.Object.GetTypeMeta().Kind == api.KindNode {
			p.nodes[d.Object.GetObjectMeta().Name] = true
		}
	}
	s.Steps, s.srcSteps = p.steps(raw.Steps)
	s.Duration = defaultDuration(s.Steps)
	if raw.Duration != nil && !isNull(raw.Duration) {
		if d, ok := p.duration(raw.Duration, "duration", false); ok {
			s.Duration, s.durationSet = d, true
			p.checkStepsWithin(s)
		}
	}
	p.checkCommits(s)
	if !p.probs.HasErrors() {
		// Updates are checked between objects that are valid on their own.
		p.checkUpdates(s)
	}
	return s, p.probs
}

// parseManifests makes a scenario of a plain manifest file.
func parseManifests(docs []*yaml.Node, file string) (*Scenario, Problems) {
	p := &parser{file: file}
	s := &Scenario{Name: NameFromFile(file), Seed: DefaultSeed, Cluster: DefaultCluster(), Duration: Tail}
	s.Objects = p.objects(docs)
	p.checkReplicas(s.Objects, "the objects ask for")
	root := &yaml.Node{Kind: yaml.MappingNode}
	items := &yaml.Node{Kind: yaml.SequenceNode}
	for _, d := range docs {
		item := d.Content[0]
		// A comment above the document belongs above its list entry.
		if item.Kind == yaml.MappingNode && len(item.Content) > 0 {
			item.HeadComment, item.Content[0].HeadComment = joinComments(d.HeadComment, item.HeadComment, item.Content[0].HeadComment), ""
		}
		items.Content = append(items.Content, item)
	}
	root.Content = append(root.Content, strNode("name"), strNode(s.Name), strNode("objects"), items)
	s.src = &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}
	return s, p.probs
}

func joinComments(cs ...string) string {
	var out []string
	for _, c := range cs {
		if c != "" {
			out = append(out, c)
		}
	}
	return strings.Join(out, "\n")
}

func strNode(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// objects decodes and validates manifests.
func (p *parser) objects(nodes []*yaml.Node) []manifest.Doc {
	var out []manifest.Doc
	for _, n := range nodes {
		docs, probs := manifest.DecodeNodes(n, p.file)
		p.probs = append(p.probs, probs...)
		for _, d := range docs {
			if !p.noValidate {
				p.probs = append(p.probs, manifest.Validate(d)...)
				p.probs = append(p.probs, appliedAnnotations(d)...)
			}
			out = append(out, d)
		}
	}
	return out
}

// appliedAnnotations refuses an object whose annotations are within the
// API server's 256 KiB on their own but not once kubectl apply, which is how
// the scenario's objects and apply steps reach the cluster, has added the
// last-applied-configuration annotation: the whole manifest as JSON. The run
// would fail at that step with this message.
func appliedAnnotations(d manifest.Doc) Problems {
	m := d.Object.GetObjectMeta()
	if validation.ValidateAnnotationsSize(m.Annotations) != nil {
		return nil // manifest.Validate has said so
	}
	la, err := kubectl.LastApplied(d.Object)
	if err != nil {
		return nil
	}
	ann := maps.Clone(m.Annotations)
	if ann == nil {
		ann = map[string]string{}
	}
	ann[api.LastAppliedAnnotation] = la
	return manifest.PlaceErrors(d, d.Object, validation.ValidateAnnotationsSize(ann))
}

// checkReplicas enforces MaxReplicas over docs: a Deployment or ReplicaSet
// counts its replicas (1 when unset), a Pod counts one.
func (p *parser) checkReplicas(docs []manifest.Doc, what string) {
	total := 0
	for _, d := range docs {
		n := 0
		switch o := d.Object.(type) {
		case *api.Deployment:
			n = int(api.Deref(o.Spec.Replicas, 1))
		case *api.ReplicaSet:
			n = int(api.Deref(o.Spec.Replicas, 1))
		case *api.Pod:
			n = 1
		}
		total += max(n, 0)
		if total > MaxReplicas {
			pos := d.Positions.LookupValue("spec.replicas")
			p.problem(pos, "too many replicas: %s %d in total (the limit is %d)", what, total, MaxReplicas)
			return
		}
	}
}

// checkStepsWithin refuses steps after the end of the scenario.
func (p *parser) checkStepsWithin(s *Scenario) {
	for _, st := range s.Steps {
		if st.At > s.Duration {
			p.problem(manifest.Position{Line: st.Line, Col: st.Col}, "a step at %s is after the end of the scenario (duration: %s)", st.At, s.Duration)
		}
	}
}

var errNoAction = errors.New("a step needs exactly one of kubectl, apply, fault, expect, commit, load, note")
