package kubectl

import (
	"strings"
	"text/tabwriter"

	"converge/core/api"
	"converge/core/labels"
)

// tableOptions are get's printing flags.
type tableOptions struct {
	wide          bool
	withNamespace bool
	withKind      bool
	showLabels    bool
	noHeaders     bool
	labelColumns  []string
}

// newTabWriter is printers.GetNewTabWriter: min width 6, tab width 4,
// padding 3 (kubectl remembers widths across flushes; each table here has its own writer).
func newTabWriter(b *strings.Builder) *tabwriter.Writer {
	return tabwriter.NewWriter(b, 6, 4, 3, ' ', 0)
}

// writeTable prints one table of objects of one type, as kubectl's human
// readable printer does: upper-case headers, cells separated by tabs, the
// last cell not padded.
func writeTable(w *tabwriter.Writer, rt *resourceType, infos []info, o tableOptions, now api.Time) {
	columns := tableColumns[rt.Kind]
	if !o.noHeaders {
		var hdr []string
		if o.withNamespace && rt.Namespaced {
			hdr = append(hdr, "NAMESPACE")
		}
		for _, c := range columns {
			if !c.wide || o.wide {
				hdr = append(hdr, c.name)
			}
		}
		for _, l := range o.labelColumns {
			hdr = append(hdr, strings.ToUpper(labelColumnName(l)))
		}
		if o.showLabels {
			hdr = append(hdr, "LABELS")
		}
		w.Write([]byte(strings.Join(hdr, "\t") + "\n"))
	}
	nameCol := nameColumn(rt.Kind)
	for _, in := range infos {
		m := in.obj.GetObjectMeta()
		cells := tableRow(in.obj, now)
		var row []string
		if o.withNamespace && rt.Namespaced {
			row = append(row, m.Namespace)
		}
		for i, c := range columns {
			if c.wide && !o.wide {
				continue
			}
			cell := cells[i]
			if i == nameCol && o.withKind {
				cell = kindString(rt) + "/" + cell
			}
			row = append(row, escapeCell(cell))
		}
		for _, l := range o.labelColumns {
			row = append(row, m.Labels[l])
		}
		if o.showLabels {
			row = append(row, labels.FormatLabels(m.Labels))
		}
		w.Write([]byte(strings.Join(row, "\t") + "\n"))
	}
}

func labelColumnName(l string) string {
	if i := strings.LastIndex(l, "/"); i >= 0 {
		return l[i+1:]
	}
	return l
}

// escapeCell keeps a cell on its line and out of the tab writer's columns,
// as kubectl's table printer does with tabs and newlines in values.
func escapeCell(s string) string {
	if !strings.ContainsAny(s, "\t\n\r") {
		return s
	}
	r := strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")
	return r.Replace(s)
}
