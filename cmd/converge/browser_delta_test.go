package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestBrowserSnapshotsFromDeltasEqualTheTraceLine: step, seek and
// snapshot, which are sent only the objects that changed since the
// snapshot the instance holds (Session.TraceDelta), give the trace line's
// content through a rolling update, seeks back and forth, a command and a
// second instance; their objects are frozen (shared by the snapshots that
// have them), their arrays the caller's own.
func TestBrowserSnapshotsFromDeltasEqualTheTraceLine(t *testing.T) {
	srv := startServe(t)
	p := openPage(t, srv.URL+"/")
	p.waitReady(t)
	bad := evalJS[[]string](t, p, `(() => {
		const s = converge.create(), other = converge.create();
		const bad = [];
		const check = (what, snap, sim = s) => {
			if (JSON.stringify(snap) !== JSON.stringify(JSON.parse(sim.snapshotJSON()))) bad.push(what);
		};
		try {
			s.loadBuiltin("rolling-update");
			other.loadBuiltin("rolling-update");
			check("snapshot at 0", s.snapshot());
			for (let i = 1; i <= 40; i++) {
				check("step to " + i, s.step());
				other.step();
			}
			check("step(5)", s.step(5));
			check("seek back to 3", s.seek(3));
			check("seek to 30", s.seek(30));
			if (!s.run("scale deployment/web --replicas=2").ok) bad.push("run");
			check("after a command", s.snapshot());
			const snap = s.step();
			if (!Object.isFrozen(snap.pods[0]) || !Object.isFrozen(snap.pods[0].metadata)) bad.push("objects are frozen");
			snap.pods.length = 0;
			check("after emptying an array", s.snapshot());
			check("the other instance", other.snapshot(), other);
		} finally {
			s.dispose();
			other.dispose();
		}
		return bad;
	})()`)
	assert.Empty(t, bad)
	p.assertNoConsoleErrors(t)
}
