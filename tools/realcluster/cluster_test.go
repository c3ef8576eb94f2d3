package realcluster

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// binDir is where realcluster build wrote kc and kwok ($REALCLUSTER_BIN,
// default ../../bin/realcluster); the test is skipped without them.
func binDir(t *testing.T) Bin {
	t.Helper()
	dir := os.Getenv("REALCLUSTER_BIN")
	if dir == "" {
		dir = filepath.Join("..", "..", "bin", "realcluster")
	}
	dir, err := filepath.Abs(dir)
	require.NoError(t, err)
	b := BinIn(dir)
	for _, f := range []string{b.KC, b.Kwok} {
		if _, err := os.Stat(f); err != nil {
			t.Skipf("no %s: make realcluster-build first", f)
		}
	}
	return b
}

// A cluster comes up with its nodes Ready, answers, and leaves no process
// behind when it goes down.
func TestClusterUpDown(t *testing.T) {
	bin := binDir(t)
	stages, err := DefaultStages(kwokDir(t))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c, err := Up(ctx, bin, t.TempDir(), []Node{{Name: "converge-worker", CPU: "4", Memory: "8Gi", Pods: 110}}, stages)
	require.NoError(t, err)
	pids := c.PIDs()
	assert.Len(t, pids, 5)
	raw, err := c.GetRaw("/version")
	c.Down()
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"gitVersion": "v1.35.4"`)
	for name, pid := range pids {
		assert.ErrorIs(t, syscall.Kill(pid, 0), syscall.ESRCH, "%s (%d) still runs", name, pid)
	}
}
