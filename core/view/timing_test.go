package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/simtest/simrun"
)

func TestRolloutTimesSayWhereTheTimeWent(t *testing.T) {
	t.Parallel()
	s := simrun.New(t, simrun.Builtin(t, "rolling-update"))
	s.SeekTo(90)
	times := RolloutTimes(s, "web")
	require.Len(t, times, 1)
	rt := times[0]
	assert.Equal(t, "web@20", rt.Key)
	assert.Equal(t, "Rollout 2 (web-55cd9cf788)", rt.Title)
	assert.Equal(t, "Rollout 2 (web-55cd9cf788): complete in 9 s — creating pods 2 s, paced by maxSurge 6 s, waiting for old pods to go 1 s", rt.Text)
	assert.Equal(t, "", rt.Deadline, "a rollout that completed in time says nothing of the deadline")

	s.SeekTo(24)
	rt = RolloutTimes(s, "web")[0]
	assert.Equal(t, "Rollout 2 (web-55cd9cf788): 4 s so far — paced by maxSurge 4 s; progress deadline: 4 s of 600 s without progress", rt.Text)
	assert.Equal(t, "counting", rt.DeadlineKind)

	s.SeekTo(10)
	assert.Empty(t, RolloutTimes(s, "web"), "no rollout before the image change")
}

func TestRolloutTimesOfAStuckRollout(t *testing.T) {
	t.Parallel()
	s := simrun.New(t, simrun.Builtin(t, "stuck-bad-image"))
	s.SeekTo(62)
	rt := RolloutTimes(s, "web")[0]
	assert.Equal(t, "Rollout 2 (web-794dfbf5c): 42 s so far — paced by maxSurge 2 s, new pods failing (ImagePullBackOff) 40 s; "+
		"progress deadline: 42 s of 120 s without progress", rt.Text)
	bands, mark := TimeBands(s, "web")
	require.Len(t, bands, 2)
	assert.Equal(t, TimeBand{Key: "20/20", Part: "surge", Left: "10", Width: "1", Label: "20s–22s: paced by maxSurge (2 s), rollout 2 (web-794dfbf5c)"}, bands[0])
	assert.Equal(t, "failing", bands[1].Part)
	require.NotNil(t, mark)
	assert.Equal(t, "deadline", mark.Kind)
	assert.Equal(t, int64(141), mark.T, "more than 120 s after the last progress at 20s")
	assert.Equal(t, "2m21s: the progress deadline is exceeded then unless the rollout progresses (42 s of 120 s without progress now)", mark.Label)

	s.SeekTo(150)
	rt = RolloutTimes(s, "web")[0]
	assert.Equal(t, "exceeded", rt.DeadlineKind)
	assert.Contains(t, rt.Text, "; progress deadline exceeded at 2m21s: more than 120 s without progress (Progressing=False, ProgressDeadlineExceeded)")
	_, mark = TimeBands(s, "web")
	require.NotNil(t, mark)
	assert.Equal(t, TimeMark{Kind: "exceeded", T: 141, Left: "70.5", Label: "2m21s: ProgressDeadlineExceeded (120 s without progress)"}, *mark)

	s.SeekTo(180)
	times := RolloutTimes(s, "web")
	require.Len(t, times, 2, "the undo at 160s is a rollout of its own")
	assert.Equal(t, "Rollout 3: complete at once", times[0].Text, "the old ReplicaSet was still whole")
	assert.Contains(t, times[1].Text, "replaced by a newer template after 140 s")
}

func TestRolloutTimesWhilePaused(t *testing.T) {
	t.Parallel()
	s := simrun.New(t, simrun.Builtin(t, "pause-resume"))
	s.SeekTo(30)
	rt := RolloutTimes(s, "web")[0]
	assert.Equal(t, "Rollout (no new ReplicaSet yet): 10 s so far — paused 10 s; progress deadline: not counting while paused (600 s once resumed)", rt.Text)
	assert.Equal(t, "paused", rt.DeadlineKind)
	_, mark := TimeBands(s, "web")
	assert.Nil(t, mark)
}

func TestTimeBandsWithoutDeployment(t *testing.T) {
	t.Parallel()
	s := load(t, "name: empty\n")
	bands, mark := TimeBands(s, "")
	assert.Nil(t, bands)
	assert.Nil(t, mark)
}
