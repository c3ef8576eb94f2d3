package session

import (
	"fmt"

	"converge/core/export"
	"converge/core/library"
	"converge/core/scenario"
	"converge/core/sim"
	"converge/core/version"
	"converge/core/view"
)

// File is one download the page offers: its file name, media type and
// bytes (docs/sharing.md, "Downloads").
type File struct {
	Name string
	Type string
	Data []byte
}

// Media types of the downloads.
const (
	TypeYAML  = "application/yaml"
	TypeShell = "text/x-shellscript"
	TypeJSONL = "application/jsonl"
	TypeSVG   = "image/svg+xml"
)

// baseName is the download's name without its extension: the scenario's
// name, made safe for a file name.
func baseName(scn *scenario.Scenario) string { return library.SanitizeName(scn.Name) }

// asFile is the scenario as it runs (with the steps added from the
// console), marshalled and read back: what the downloads are made from, so
// that each is what the command line makes of the downloaded YAML.
func asFile(scn *scenario.Scenario) ([]byte, *scenario.Scenario, error) {
	data, err := scn.Marshal()
	if err != nil {
		return nil, nil, fmt.Errorf("the scenario: %w", err)
	}
	back, probs := scenario.Parse(data, baseName(scn)+".yaml")
	if probs.HasErrors() {
		return nil, nil, fmt.Errorf("the scenario does not read back: %s", probs.Errors()[0])
	}
	return data, back, nil
}

// ScenarioFile is the scenario as it runs, as NAME.yaml.
func ScenarioFile(scn *scenario.Scenario) (File, error) {
	data, _, err := asFile(scn)
	if err != nil {
		return File{}, err
	}
	return File{Name: baseName(scn) + ".yaml", Type: TypeYAML, Data: data}, nil
}

// KubectlFile is the replay script of the scenario as it runs (what
// `converge export-kubectl NAME.yaml` prints for the scenario's download),
// as NAME.sh.
func KubectlFile(scn *scenario.Scenario) (File, error) {
	_, back, err := asFile(scn)
	if err != nil {
		return File{}, err
	}
	data, err := export.Kubectl(back, export.KubectlOptions{File: baseName(scn) + ".yaml", Version: version.Version})
	if err != nil {
		return File{}, err
	}
	return File{Name: baseName(scn) + ".sh", Type: TypeShell, Data: data}, nil
}

// TraceFile is the trace of the scenario as it runs, from 0s to its
// duration: the bytes of `converge run NAME.yaml --output jsonl` for the
// scenario's download, as NAME.jsonl.
func TraceFile(scn *scenario.Scenario) (File, error) {
	ts, name, err := TraceDownload(scn)
	if err != nil {
		return File{}, err
	}
	data, err := boundedTrace(ts)
	if err != nil {
		return File{}, err
	}
	return File{Name: name, Type: TypeJSONL, Data: data}, nil
}

// ChartsFile is the charts the page draws for the Deployment focus ("" for
// the first), up to the current second, as NAME-Ts.svg.
func ChartsFile(s *sim.Sim, focus string) File {
	in := view.IntroOf(s)
	title := in.Name
	if in.Title != "" && in.Title != in.Name {
		title += ": " + in.Title
	}
	tl := view.TimelineOf(s)
	sub := "At " + tl.Now + " of " + tl.SpanText + ", simulated by Converge " + version.Version
	name := fmt.Sprintf("%s-%ds.svg", baseName(s.Scenario()), s.T())
	return File{Name: name, Type: TypeSVG, Data: export.ChartsSVG(title, sub, view.Charts(s, focus))}
}
