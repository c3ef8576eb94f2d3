package session

import (
	"bytes"

	"converge/core/export"
	"converge/core/scenario"
)

// TraceDownload starts the trace of the scenario as it runs, from 0s to
// its duration, for the page to build in slices (export.TraceStream,
// limited to export.MaxTraceDownload), and the file's name.
func TraceDownload(scn *scenario.Scenario) (*export.TraceStream, string, error) {
	_, back, err := asFile(scn)
	if err != nil {
		return nil, "", err
	}
	ts, err := export.NewTraceStream(back, back.Duration)
	if err != nil {
		return nil, "", err
	}
	ts.Limit(export.MaxTraceDownload)
	return ts, baseName(scn) + ".jsonl", nil
}

// boundedTrace is the whole trace of TraceDownload in one call (the JS
// API's exportTrace): refused after its first ten seconds when its estimate
// goes beyond export.MaxTraceDownload, or as soon as it does.
func boundedTrace(ts *export.TraceStream) ([]byte, error) {
	var b bytes.Buffer
	done, err := ts.Next(&b, 10)
	if err != nil {
		return nil, err
	}
	if err := ts.CheckEstimate(); err != nil {
		return nil, err
	}
	for !done {
		if done, err = ts.Next(&b, 60); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}
