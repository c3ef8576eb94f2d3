package manifest

import (
	"testing"
)

func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		mismatched,
		kubectlGetOutput,
		deployHead + "spec:\n  replicass: 3\n  replicas: x\n",
		"apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}, data: {<<: {x: y}}}\n",
		"a: &a [*a]\n",
		"{\"apiVersion\": \"v1\", \"kind\": \"Pod\"}",
		"apiVersion: v1\nkind: Pod\nspec: !foo {}\n---\n[",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, probs := Decode(data, "f.yaml")
		for _, p := range probs {
			if p.Line < 1 || p.Col < 1 {
				t.Fatalf("problem without a position: %q", p.String())
			}
		}
		if probs.HasErrors() && len(docs) > 0 && len(probs.Errors()) == 0 {
			t.Fatal("inconsistent problems")
		}
		for _, d := range docs {
			_ = Validate(d)
		}
		_, _ = DecodeObjects(data, "f.yaml")
	})
}
