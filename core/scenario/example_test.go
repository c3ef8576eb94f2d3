package scenario_test

import (
	"fmt"
	"time"

	"converge/core/scenario"
)

func ExampleParse() {
	s, probs := scenario.Parse([]byte(`name: scale-up
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 3
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: web, image: nginx:1.27}]}
steps:
- at: 20s
  kubectl: scale deployment/web --replicas=5
- at: 40s
  expect: deploy/web .status.availableReplicas == 5
`), "scale-up.yaml")
	if probs.HasErrors() {
		fmt.Println(probs)
		return
	}
	fmt.Println(s.Name, s.Duration, len(s.Cluster.Nodes), "nodes")
	for _, st := range s.Steps {
		fmt.Println(st.At, st.Action())
	}
	// Output:
	// scale-up 1m40s 3 nodes
	// 20s kubectl scale deployment/web --replicas=5
	// 40s expect deployment/web .status.availableReplicas == 5
}

func ExampleParse_errors() {
	_, probs := scenario.Parse([]byte(`name: Bad_Name
duraton: 5m
steps:
- at: 30
  kubectl: get pods
- at: 40s
  fault: node-down node-9
`), "bad.yaml")
	fmt.Println(probs)
	// Output:
	// bad.yaml:1:7: name: invalid name "Bad_Name": must consist of lowercase letters, digits and '-', at most 63 characters
	// bad.yaml:2:1: unknown field "duraton"; did you mean "duration"?
	// bad.yaml:4:7: steps[0].at: 30 is a number; write a duration with a unit, such as 30s
	// bad.yaml:7:20: steps[1].fault: unknown node "node-9"; the cluster's nodes are node-1, node-2, node-3
}

func ExampleParseExpect() {
	e, err := scenario.ParseExpect(`deploy/web .status.conditions[?(@.type=="Available")].status == True`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(e.Kind, e.Name, e)
	ok, got, _ := e.Eval(map[string]any{"status": map[string]any{"conditions": []any{
		map[string]any{"type": "Available", "status": "False"},
	}}})
	fmt.Println(ok, got)

	_, err = scenario.ParseExpect("deployment/web .status.availableReplica == 3")
	fmt.Println(err)
	// Output:
	// Deployment web deployment/web .status.conditions[?(@.type=="Available")].status == True
	// false "False"
	// column 24: unknown field "availableReplica" in status; did you mean "availableReplicas"?
}

func ExampleScenario_AppendStep() {
	s, _ := scenario.Parse([]byte("name: console\nsteps:\n- at: 10s\n  kubectl: get pods  # look\n"), "console.yaml")
	_ = s.AppendStep(scenario.Step{At: 5 * time.Second, Kubectl: "scale deployment/web --replicas=2"})
	out, _ := s.Marshal()
	fmt.Print(string(out))
	// Output:
	// name: console
	// steps:
	// - at: 5s
	//   kubectl: scale deployment/web --replicas=2
	// - at: 10s
	//   kubectl: get pods # look
}

func ExampleEncodeShare() {
	link, _ := scenario.EncodeShare([]byte("name: web\n"))
	yaml, _ := scenario.DecodeShare(link)
	fmt.Printf("%s", yaml)
	_, err := scenario.DecodeShare("not*base64")
	fmt.Println(err)
	// Output:
	// name: web
	// share link is corrupt: illegal base64 data at input byte 3
}
