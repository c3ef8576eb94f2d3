package realcluster

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMatchSteps(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		sim, real   string
		agree, fine bool
	}{
		{"equal", "10,8,3,0", "10,8,3,0", true, false},
		{"the cluster split a step", "10,8,3,0", "10,8,7,3,0", true, true},
		{"Converge split a step", "0,3,5", "0,5", true, true},
		{"another path", "10,8,3,0", "10,5,0", false, false},
		{"a value outside the step", "10,8,3,0", "10,8,9,3,0", false, false},
		{"another end", "10,8,3", "10,8,3,0", false, false},
		{"gone is no number", "4,gone", "4,2,gone", false, false},
		{"both empty", "", "", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			split := func(s string) []string {
				if s == "" {
					return nil
				}
				return strings.Split(s, ",")
			}
			pairs, refined := matchSteps(split(tt.sim), split(tt.real))
			assert.Equal(t, tt.agree, pairs != nil)
			assert.Equal(t, tt.fine, refined)
		})
	}
}

func TestWithoutTransient(t *testing.T) {
	t.Parallel()
	s := &series{vals: []string{"", "ReplicaSetUpdated", "NewReplicaSetAvailable", "NewReplicaSetCreated", "ReplicaSetUpdated"}, at: []int64{0, 1, 10, 30, 31}}
	assert.Equal(t, []string{"ReplicaSetUpdated", "NewReplicaSetAvailable", "ReplicaSetUpdated"}, withoutTransient(s))
	lasting := &series{vals: []string{"NewReplicaSetCreated", "ReplicaSetUpdated"}, at: []int64{5, 20}}
	assert.Equal(t, []string{"NewReplicaSetCreated", "ReplicaSetUpdated"}, withoutTransient(lasting))
}

func TestWatchAgrees(t *testing.T) {
	t.Parallel()
	sim := "Waiting for a: 1 of 4\nWaiting for a: 3 of 4\ndone"
	tests := []struct {
		name, real string
		agree      bool
	}{
		{"the same", sim, true},
		{"repeated lines", "Waiting for a: 1 of 4\nWaiting for a: 1 of 4\nWaiting for a: 3 of 4\ndone", true},
		{"a line more", "Waiting for a: 1 of 4\nWaiting for a: 2 of 4\nWaiting for a: 3 of 4\ndone", true},
		{"one line, one of Converge's", "Waiting for a: 3 of 4", true},
		{"one line, not Converge's", "Waiting for a: 2 of 4", false},
		{"another end", "Waiting for a: 1 of 4\nerror", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.agree, watchAgrees(sim, tt.real))
		})
	}
}

// The namespace goes whole, before any rule can take a word of it (the
// ReplicaSet-name rule took "mismatch" of converge-selector-mismatch-r1);
// default-scheduler stays.
func TestNormaliseNamespace(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "No resources found in NAMESPACE namespace.", normalise("No resources found in converge-selector-mismatch-r1 namespace.", "converge-selector-mismatch-r1"))
	assert.Equal(t, normalise("Successfully assigned default/web-5dd764dfcc-6w667 to node-1 by default-scheduler", "default"),
		normalise("Successfully assigned converge-x-r1/web-6b8d9f7c5-x2k9p to converge-worker by default-scheduler", "converge-x-r1"))
}

// An event the correlator combined counts once per update the watch saw,
// with that update's message, without the prefix.
func TestWatchedEvents(t *testing.T) {
	t.Parallel()
	ev := func(typ, count, msg string) string {
		return `{"wall":1,"type":"` + typ + `","object":{"metadata":{"uid":"u1"},"reason":"ScalingReplicaSet","count":` + count +
			`,"message":"` + msg + `","source":{"component":"deployment-controller"}}}` + "\n"
	}
	data := ev("ADDED", "1", "Scaled down replica set web-1 from 8 to 7") +
		ev("MODIFIED", "2", aggregatePrefix+"Scaled down replica set web-1 from 7 to 3") +
		ev("MODIFIED", "2", aggregatePrefix+"Scaled down replica set web-1 from 7 to 3")
	s := &side{ident: map[string]string{"web-1": "web r1"}}
	scaling, reasons, err := watchedEvents([]byte(data), s)
	assert.NoError(t, err)
	assert.Equal(t, []string{"Scaled down replica set <web r1> from 8 to 7", "Scaled down replica set <web r1> from 7 to 3"}, scaling)
	assert.True(t, reasons["deployment-controller ScalingReplicaSet"])
	assert.Equal(t, map[string][]string{"<web r1>": {"8", "7", "3"}}, scalingChains(scaling))
}
