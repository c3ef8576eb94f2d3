package scenario

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestErrorsGolden parses every testdata/errors/*.yaml and compares its
// problems, FILE:LINE:COL: message one per line, with the .golden file next
// to it. go test -update rewrites the golden files.
func TestErrorsGolden(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/errors/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			s, probs := Parse(data, filepath.Base(file))
			assert.Nil(t, s, "an invalid scenario is not returned")
			require.True(t, probs.HasErrors())
			got := probs.Error() + "\n"
			golden := strings.TrimSuffix(file, ".yaml") + ".golden"
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), got)
			for _, p := range probs {
				assert.GreaterOrEqual(t, p.Line, 1, p.String())
				assert.GreaterOrEqual(t, p.Col, 1, p.String())
			}
		})
	}
}
