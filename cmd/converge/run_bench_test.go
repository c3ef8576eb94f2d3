package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

// BenchmarkRunText is `converge run FILE` (the text timeline) without the
// process's start: the figure of docs/performance.md's perf-5000 text run,
// and, with -cpuprofile/-memprofile, where its time goes. Output goes to
// io.Discard through the same terminal-safe writers as the command's.
var benchArgs = strings.Fields(os.Getenv("CONVERGE_BENCH_ARGS"))

func BenchmarkRunText(b *testing.B) {
	for _, name := range []string{"perf-500", "perf-5000"} {
		b.Run(fmt.Sprintf("scenario=%s", name), func(b *testing.B) {
			file := "../../core/sim/testdata/perf/" + name + ".yaml"
			b.ReportAllocs()
			for b.Loop() {
				code := run(context.Background(), &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard},
					append([]string{"run", file}, benchArgs...))
				if code != exitOK {
					b.Fatalf("converge run %s: exit %d", file, code)
				}
			}
		})
	}
}
