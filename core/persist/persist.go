// Package persist holds the copy-on-write structures that let a clone of
// the simulation's state share what did not change with the state it was
// cloned from: a checkpoint costs what changed since the previous one, not
// the whole state.
//
// # Owners
//
// Every piece of a structure (a bucket of a Map) records the Owner that may
// write it in place. A write by any other owner copies the piece first and
// takes the copy. Cloning a structure is copying its small top level (an
// array of pointers) and giving both the original and the clone a new
// Owner (NewOwner): from then on neither writes a piece they share, and the
// first write to a piece after the clone copies that piece alone.
//
// The holder of a structure (the store, the kubelet) keeps the Owner of its
// version and passes it to every write; the structures never compare
// owners across holders in any other way.
//
// Nothing here is safe for concurrent use, as nothing in the simulation is.
package persist

// Owner is the identity of one version of a structure: pieces it owns are
// written in place, all others are copied on write. Only its address
// matters.
type Owner struct{ _ byte }

// NewOwner returns a fresh Owner, different from every other.
func NewOwner() *Owner { return &Owner{} }
