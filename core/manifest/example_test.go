package manifest_test

import (
	"fmt"

	"converge/core/manifest"
)

func ExampleDecode() {
	in := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  uid: 7d3c
  labels:
    version: 1.0
spec:
  replicass: 3
  replicas: three
`
	_, probs := manifest.Decode([]byte(in), "web.yaml")
	for _, p := range probs {
		fmt.Println(p)
	}
	// Output:
	// web.yaml:5:3: note: dropped server-set field metadata.uid
	// web.yaml:7:14: metadata.labels.version: must be a string; quote it: "1.0"
	// web.yaml:9:3: unknown field "replicass" in spec; did you mean "replicas"?
	// web.yaml:10:13: cannot decode a string into spec.replicas (an integer)
}
