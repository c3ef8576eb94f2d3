// Command yamlprog encodes strings that the patched expressions decide
// to quote (a float, a base-60 float) and one they leave alone, for
// tools/wasmmod's tests.
package main

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

func main() {
	out, err := yaml.Marshal(map[string]string{"float": "1.5e3", "base60": "1:20", "plain": "web"})
	fmt.Print(string(out), err)
}
