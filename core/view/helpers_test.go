package view

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"converge/core/scenario"
	"converge/core/sim"
)

// load parses a scenario and prepares its simulation at t=0.
func load(t testing.TB, src string) *sim.Sim {
	t.Helper()
	scn, probs := scenario.Parse([]byte(src), "test.yaml")
	require.False(t, probs.HasErrors(), "%v", probs)
	s, err := sim.New(scn, sim.Options{})
	require.NoError(t, err)
	return s
}

// at loads src and seeks to second t.
func at(t testing.TB, src string, sec int64) *sim.Sim {
	t.Helper()
	s := load(t, src)
	s.SeekTo(sec)
	return s
}

// deploymentDoc is a Deployment "web" with the given spec lines (indented
// under spec:, after replicas) and image.
func deploymentDoc(replicas, image string, extra ...string) string {
	var b strings.Builder
	b.WriteString(`- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: ` + replicas + `
    selector: {matchLabels: {app: web}}
`)
	for _, e := range extra {
		b.WriteString("    " + e + "\n")
	}
	b.WriteString(`    template:
      metadata: {labels: {app: web}}
      spec:
        containers:
        - {name: web, image: "` + image + `", resources: {requests: {cpu: 100m, memory: 64Mi}}}
`)
	return b.String()
}

const serviceDoc = `- apiVersion: v1
  kind: Service
  metadata: {name: web}
  spec:
    selector: {app: web}
    ports: [{port: 80}]
`

// rolling: 10 replicas roll from web:1 to web:2 (ready 3s after start) at 10s.
var rolling = `name: rolling
title: Rolling
description: |
  Ten pods roll.
cluster:
  images:
    web:2: {readySeconds: 3}
objects:
` + deploymentDoc("10", "web:1") + serviceDoc + `steps:
- at: 10s
  kubectl: set image deployment/web web=web:2
`

// history: rollouts, a scale, an undo, with revisionHistoryLimit 1.
var history = `name: history
objects:
` + deploymentDoc("4", "web:1", "revisionHistoryLimit: 1") + `steps:
- at: 10s
  kubectl: set image deployment/web web=web:2
- at: 30s
  kubectl: scale deployment/web --replicas=3
- at: 40s
  kubectl: set image deployment/web web=web:3
- at: 70s
  kubectl: rollout undo deployment/web
- at: 75s
  expect: deployment/web .spec.replicas == 3
- at: 76s
  expect: deployment/web .spec.replicas == 9
- at: 100s
  expect: deployment/web .status.availableReplicas == 3
`

var unavailScn = `name: u
cluster:
  images:
    web:2: {readySeconds: 3}
objects:
` + deploymentDoc("4", "web:1", "strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}") + `steps:
- at: 10s
  kubectl: set image deployment/web web=web:2
`
var stuckScn = `name: s
cluster:
  images:
    web:bad: {pull: fail}
objects:
` + deploymentDoc("3", "web:1", "progressDeadlineSeconds: 10") + `steps:
- at: 5s
  kubectl: set image deployment/web web=web:bad
`
var pausedScn = `name: p
objects:
` + deploymentDoc("3", "web:1") + `steps:
- at: 5s
  kubectl: rollout pause deployment/web
- at: 6s
  kubectl: set image deployment/web web=web:2
`

// nodeDown: node-1 stops at 5s; its pods are evicted 20s after it is lost.
var nodeDown = `name: node-down
cluster:
  nodes:
  - {name: node-1, cpu: "2", memory: 4Gi, pods: 10}
  - {name: node-2, cpu: "2", memory: 4Gi, pods: 10}
  timings: {nodeMonitorGracePeriod: 20s, podEvictionTimeout: 10s}
objects:
` + deploymentDoc("4", "web:1") + `steps:
- at: 5s
  fault: node-down node-1
`
