package scenarios

import (
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"converge/core/lesson"
)

// Every embedded file is YAML whose name field is its file name, in the form
// docs/scenarios.md allows. (core/scenario checks everything else.)
func TestEveryScenarioIsNamedAfterItsFile(t *testing.T) {
	t.Parallel()
	names, err := fs.Glob(FS, "*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, names)
	valid := regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	for _, file := range names {
		t.Run(file, func(t *testing.T) {
			t.Parallel()
			data, err := FS.ReadFile(file)
			require.NoError(t, err)
			var head struct {
				Name  string `yaml:"name"`
				Title string `yaml:"title"`
			}
			require.NoError(t, yaml.Unmarshal(data, &head))
			assert.Equal(t, strings.TrimSuffix(path.Base(file), ".yaml"), head.Name)
			assert.Regexp(t, valid, head.Name)
			assert.LessOrEqual(t, len(head.Name), 63)
			assert.NotEmpty(t, head.Title)
		})
	}
}

// TestTheDocsListEveryScenario keeps docs/scenarios.md's library table complete.
func TestTheDocsListEveryScenario(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/scenarios.md")
	require.NoError(t, err)
	names, err := fs.Glob(FS, "*.yaml")
	require.NoError(t, err)
	for _, file := range names {
		assert.Contains(t, string(doc), "(../scenarios/"+file+")", "docs/scenarios.md lists %s", file)
	}
}

// Every library scenario is in exactly one lesson of the learning path, and
// the path names no scenario the library lacks.
func TestEveryScenarioIsInExactlyOneLesson(t *testing.T) {
	t.Parallel()
	p, err := lesson.Parse(Lessons)
	require.NoError(t, err, "lesson.Parse refuses a scenario in two lessons")
	names, err := fs.Glob(FS, "*.yaml")
	require.NoError(t, err)
	onPath := map[string]bool{}
	for _, s := range p.Steps() {
		onPath[s.Name] = true
		assert.Contains(t, names, s.Name+".yaml", "lesson %s names a library scenario", s.Number())
	}
	for _, file := range names {
		assert.True(t, onPath[strings.TrimSuffix(file, ".yaml")], "%s is in a lesson", file)
	}
}
