package kubectl

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
	"converge/core/store"
)

// TestGetWatch: get -w prints the list, then at each poll a row for each
// object added, changed or deleted since the last poll, and never ends by
// itself; --watch-only leaves out the list.
func TestGetWatch(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	r := f.run("get pods -w")
	require.Empty(t, r.Error)
	assert.Equal(t, "NAME                   READY   STATUS    RESTARTS   AGE\n"+
		"web-66b6c48dd5-4jw2m   1/1     Running   0          5m\nweb-66b6c48dd5-8xk2p   1/1     Running   0          5m\n"+
		"web-66b6c48dd5-tz7qw   1/1     Running   0          5m", r.Output)
	require.NotNil(t, r.Wait)
	assert.Equal(t, Poll{}, r.Wait.Poll(f.env), "nothing changed")

	only := f.run("get pods --watch-only -o name")
	require.NotNil(t, only.Wait)
	assert.Empty(t, only.Output)

	simtest.Advance(f.st, 10*time.Second)
	f.editPod(t, "web-66b6c48dd5-8xk2p", func(p *api.Pod) { p.Labels["x"] = "y" })
	require.NoError(t, f.st.Delete(api.KindPod, "default", "web-66b6c48dd5-tz7qw", store.DeleteOptions{GracePeriodSeconds: api.Int64(0)}))
	clone := r.Wait.Clone()
	p := r.Wait.Poll(f.env)
	assert.False(t, p.Done)
	assert.Equal(t, "web-66b6c48dd5-8xk2p   1/1     Running   0          5m10s\nweb-66b6c48dd5-tz7qw   1/1     Running   0          5m10s", p.Output)
	assert.Equal(t, Poll{}, r.Wait.Poll(f.env), "each change once")
	assert.Equal(t, p, clone.Poll(f.env), "the clone keeps its own memory")
	assert.Equal(t, "pod/web-66b6c48dd5-8xk2p\npod/web-66b6c48dd5-tz7qw", only.Wait.Poll(f.env).Output)
	assert.True(t, r.Wait.(*getWatch).UntilNextCommand())
}
