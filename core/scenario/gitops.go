package scenario

import (
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"converge/core/api"
	"converge/core/manifest"
)

// GitOps is cluster.gitops: a simplified GitOps reconciler (Argo CD / Flux
// style) and the repository it syncs (docs/scenarios.md).
type GitOps struct {
	// Interval is the time between syncs; the first is at t=0.
	Interval time.Duration
	// SelfHeal re-applies Git over live drift at every sync; without it
	// only new commits are applied.
	SelfHeal bool
	// Prune deletes the objects a commit removed at the next sync.
	Prune bool
	// Repo are the manifests Git holds at t=0 (commit 1).
	Repo []manifest.Doc
}

// DefaultGitOpsInterval is Argo CD's timeout.reconciliation.
const DefaultGitOpsInterval = 180 * time.Second

// CommitItem is one item of a commit step: a manifest that replaces (or
// adds) its object's manifest in Git, or, with Delete set, the removal of
// the manifest of that object.
type CommitItem struct {
	Doc manifest.Doc
	// DeleteKind and DeleteName name the removed manifest.
	DeleteKind, DeleteName string
}

// Ref is "deployment/web" for the item.
func (c CommitItem) Ref() string {
	if c.DeleteKind != "" {
		return "delete " + objectRefOf(c.DeleteKind, c.DeleteName)
	}
	return objectRef(c.Doc.Object)
}

func objectRefOf(kind, name string) string {
	if r := api.ResourceFor(kind); r != nil {
		return r.Singular + "/" + name
	}
	return strings.ToLower(kind) + "/" + name
}

type rawGitOps struct {
	Interval *yaml.Node   `json:"interval"`
	SelfHeal bool         `json:"selfHeal"`
	Prune    bool         `json:"prune"`
	Repo     []*yaml.Node `json:"repo"`
}

// gitops reads cluster.gitops.
func (p *parser) gitops(r *rawGitOps) *GitOps {
	if r == nil {
		return nil
	}
	g := &GitOps{Interval: DefaultGitOpsInterval, SelfHeal: r.SelfHeal, Prune: r.Prune}
	if r.Interval != nil && !isNull(r.Interval) {
		if d, ok := p.duration(r.Interval, "cluster.gitops.interval", false); ok {
			g.Interval = d
		}
	}
	g.Repo = p.objects(r.Repo)
	p.checkReplicas(g.Repo, "cluster.gitops.repo asks for")
	seen := map[string]int{}
	for _, d := range g.Repo {
		k := objectKey(d.Object)
		if line, dup := seen[k]; dup {
			p.problem(manifest.Position{Line: d.Line, Col: d.Col}, "cluster.gitops.repo: %s is in the repo twice (first at line %d)",
				objectRef(d.Object), line)
			continue
		}
		seen[k] = d.Line
	}
	return g
}

// commit reads a commit step: one item or a list of them.
func (p *parser) commit(n *yaml.Node, path string) []CommitItem {
	var items []*yaml.Node
	switch n.Kind {
	case yaml.MappingNode:
		items = []*yaml.Node{n}
	case yaml.SequenceNode:
		items = n.Content
		if len(items) == 0 {
			p.problem(nodePos(n), "%s: needs at least one manifest or {delete: KIND/NAME}", path)
			return nil
		}
	default:
		p.problem(nodePos(n), "%s: must be a manifest, {delete: KIND/NAME} or a list of them", path)
		return nil
	}
	var out []CommitItem
	for _, it := range items {
		if it.Kind == yaml.MappingNode && len(it.Content) >= 2 && it.Content[0].Value == "delete" {
			if c, ok := p.commitDelete(it, path); ok {
				out = append(out, c)
			}
			continue
		}
		for _, d := range p.objects([]*yaml.Node{it}) {
			out = append(out, CommitItem{Doc: d})
		}
	}
	var docs []manifest.Doc
	for _, c := range out {
		if c.Doc.Object != nil {
			docs = append(docs, c.Doc)
		}
	}
	p.checkReplicas(docs, path+" asks for")
	return out
}

// commitDelete reads {delete: KIND/NAME}.
func (p *parser) commitDelete(n *yaml.Node, path string) (CommitItem, bool) {
	if len(n.Content) > 2 {
		p.problem(nodePos(n.Content[2]), "%s: a delete item has only the field \"delete\", not %q", path, n.Content[2].Value)
		return CommitItem{}, false
	}
	v := n.Content[1]
	s, ok := p.str(v, path+".delete")
	if !ok {
		return CommitItem{}, false
	}
	kindName, name, found := strings.Cut(strings.TrimSpace(s), "/")
	kind, known := LookupKind(kindName)
	if !found || !known || name == "" || strings.Contains(name, "/") {
		p.problem(nodePos(v), "%s.delete: must be KIND/NAME, such as deployment/web, not %q", path, s)
		return CommitItem{}, false
	}
	return CommitItem{DeleteKind: kind, DeleteName: name}, true
}

// checkCommits follows Git through the commits: a commit step needs
// cluster.gitops, and a delete names a manifest Git holds at that commit.
func (p *parser) checkCommits(s *Scenario) {
	inGit := map[string]bool{}
	if s.Cluster.GitOps != nil {
		for _, d := range s.Cluster.GitOps.Repo {
			inGit[objectKey(d.Object)] = true
		}
	}
	for _, st := range s.Steps {
		if len(st.Commit) == 0 {
			continue
		}
		pos := manifest.Position{Line: st.Line, Col: st.Col}
		if s.Cluster.GitOps == nil {
			p.problem(pos, "%v", errNoGitOps)
			continue
		}
		for _, c := range st.Commit {
			if c.DeleteKind == "" {
				inGit[objectKey(c.Doc.Object)] = true
				continue
			}
			k := c.DeleteKind + "/" + c.DeleteName
			if !inGit[k] {
				p.problem(pos, "commit at %s: %s is not in Git at this commit, so it cannot be deleted", st.At, objectRefOf(c.DeleteKind, c.DeleteName))
				continue
			}
			delete(inGit, k)
		}
	}
}

// commitAction is the trace's text of a commit step.
func commitAction(items []CommitItem) string {
	refs := make([]string, len(items))
	for i, c := range items {
		refs[i] = c.Ref()
	}
	return "commit " + strings.Join(refs, ", ")
}

// commitNode is a commit step's YAML.
func commitNode(items []CommitItem) *yaml.Node {
	node := func(c CommitItem) *yaml.Node {
		if c.DeleteKind != "" {
			return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle,
				Content: []*yaml.Node{strNode("delete"), strNode(objectRefOf(c.DeleteKind, c.DeleteName))}}
		}
		return objectNode(c.Doc)
	}
	if len(items) == 1 {
		return node(items[0])
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for _, c := range items {
		seq.Content = append(seq.Content, node(c))
	}
	return seq
}
