package spell_test

import (
	"fmt"

	"converge/core/spell"
)

// A swapped pair of letters is two edits as cobra counts, one with
// transpositions.
func ExampleDistance() {
	fmt.Println(spell.Distance("relpicas", "replicas", spell.Options{}))
	fmt.Println(spell.Distance("relpicas", "replicas", spell.Options{Transpositions: true}))
	// Output:
	// 2
	// 1
}
