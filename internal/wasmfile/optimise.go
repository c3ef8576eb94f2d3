package wasmfile

import "fmt"

// Step is one of Optimise's size optimisations: its name and, when it did
// not apply, why (Err).
type Step struct {
	Name string
	Err  error
}

// Applied says whether the step changed the wasm.
func (s Step) Applied() bool { return s.Err == nil }

func (s Step) String() string {
	if s.Err != nil {
		return fmt.Sprintf("%s: skipped (%v)", s.Name, s.Err)
	}
	return s.Name + ": applied"
}

// Names of Optimise's steps.
const (
	StepStripLines = "drop the file and line numbers (StripLines)"
	StepPack       = "pack the data segments (Pack)"
)

// Optimise returns b, a wasm from Go's linker, as the page serves it:
// without the file and line numbers of its code unless lines is set
// (StripLines), with its data segments packed (Pack). Each step is
// optional: one that does not recognise the wasm (another Go release's
// layout, a damaged file) is skipped, and its Step says why, so that the
// build writes the plain wasm, which works, rather than failing. The steps
// are listed in order, without the stripping when lines is set.
func Optimise(b []byte, lines bool) ([]byte, []Step) {
	var steps []Step
	if !lines {
		stripped, _, err := StripLines(b)
		steps = append(steps, Step{Name: StepStripLines, Err: err})
		if err == nil {
			b = stripped
		}
	}
	packed, err := Pack(b, PackGap)
	steps = append(steps, Step{Name: StepPack, Err: err})
	if err == nil {
		b = packed
	}
	return b, steps
}
