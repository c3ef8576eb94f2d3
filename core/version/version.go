// Package version holds the release version of Converge, shared by the
// command line (`converge --version`) and the page (`converge.version`).
package version

// Version is the release version of Converge, in semantic-versioning form.
const Version = "0.1.0"
