package kubectl

import "strings"

// getWatch is `kubectl get -w`: after the list (none with --watch-only),
// each poll prints the row of every object that was added, changed or
// deleted since the last one, as kubectl prints one per watch event, in
// the order the list has them, the deleted last. It never ends by itself:
// a console command ends at the next command (UntilNextCommand), a
// scenario step at the end of the simulation.
type getWatch struct {
	cmd *Command // read only
	// seen is the resourceVersion of each object (by uid) at the last
	// poll; order lists the uids in the order they were seen, last holds
	// each object as it was then (a deleted one prints its last state).
	seen  map[string]string
	order []string
	last  map[string]info
	// initial is the list printed first and header whether a header was
	// printed: kubectl's tabwriter remembers the columns' widths across
	// flushes, so later rows line up with them.
	initial []info
	header  bool
}

var _ Waiter = (*getWatch)(nil)

// UntilNextCommand reports that the page's console ends this command when
// the next one is run, as Ctrl+C would.
func (g *getWatch) UntilNextCommand() bool { return true }

func newGetWatch(cmd *Command, infos []info, printed bool) *getWatch {
	g := &getWatch{cmd: cmd, seen: map[string]string{}, last: map[string]info{}}
	if printed {
		g.initial, g.header = infos, true
	}
	g.remember(infos)
	return g
}

func (g *getWatch) remember(infos []info) {
	for _, in := range infos {
		m := in.obj.GetObjectMeta()
		if _, ok := g.seen[m.UID]; !ok {
			g.order = append(g.order, m.UID)
		}
		g.seen[m.UID], g.last[m.UID] = m.ResourceVersion, in
	}
}

// Clone implements Waiter.
func (g *getWatch) Clone() Waiter {
	c := &getWatch{cmd: g.cmd, seen: make(map[string]string, len(g.seen)), order: append([]string(nil), g.order...),
		last: make(map[string]info, len(g.last)), initial: g.initial, header: g.header}
	for _, u := range g.order {
		c.seen[u], c.last[u] = g.seen[u], g.last[u]
	}
	return c
}

// Poll implements Waiter.
func (g *getWatch) Poll(env *Env) Poll {
	x := &execCtx{env: env, cmd: g.cmd, st: env.Store, ns: g.cmd.namespace()}
	sl, err := x.selectForReading(msgGetNoType)
	if err != nil {
		return Poll{}
	}
	if fs := g.cmd.str("field-selector"); fs != "" {
		if sl.infos, err = filterByFields(sl.targets, sl.infos, fs); err != nil {
			return Poll{}
		}
	}
	var events []info
	present := map[string]bool{}
	for _, in := range sl.infos {
		m := in.obj.GetObjectMeta()
		present[m.UID] = true
		if rv, ok := g.seen[m.UID]; !ok || rv != m.ResourceVersion {
			events = append(events, in)
		}
	}
	var kept []string
	for _, u := range g.order {
		if present[u] {
			kept = append(kept, u)
			continue
		}
		events = append(events, g.last[u])
		delete(g.seen, u)
		delete(g.last, u)
	}
	g.order = kept
	g.remember(sl.infos)
	if len(events) == 0 {
		return Poll{}
	}
	if !x.isTableFormat() || !oneType(events) || !oneType(g.initial) || len(g.initial) > 0 && g.initial[0].rt != events[0].rt {
		x.watchRows = g.header
		_ = x.printGetResult(events, false, false)
		g.header = true
		return Poll{Output: trimNL(x.out.String())}
	}
	// One table: the list printed first, then these rows, in one writer;
	// only the new rows are printed (after a header, the first time).
	_ = x.printGetResult(append(append([]info(nil), g.initial...), events...), false, false)
	lines := strings.Split(trimNL(x.out.String()), "\n")
	skip := len(g.initial)
	if g.header && !x.cmd.boolean("no-headers") {
		skip++
	}
	g.header = true
	return Poll{Output: strings.Join(lines[min(skip, len(lines)):], "\n")}
}

// oneType reports whether the objects are all of one type.
func oneType(infos []info) bool {
	for _, in := range infos {
		if in.rt != infos[0].rt {
			return false
		}
	}
	return true
}
