package view

import "converge/core/scenario"

// AddressTooLarge is what the page says when it cannot write its address
// for a scenario of size bytes (an Apply, a console step made it larger
// than a link carries): the address still opens what it opened before,
// so a reload or a copied address would lose this one.
func AddressTooLarge(size int) string {
	return "The page's address still opens the scenario from before: this one is " + kib(size) +
		", and an address carries at most " + kib(scenario.MaxShareSize) +
		". A reload would lose it; Share saves it in My scenarios, Download as a file."
}
