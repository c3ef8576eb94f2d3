package replicaset_test

import (
	"testing"

	"converge/core/controller"
	"converge/core/controller/replicaset"
	"converge/core/simtest/controllertest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	controllertest.Run(t, controllertest.Options{
		Name: replicaset.Component,
		New:  func() controller.Controller { return replicaset.New() },
	})
}
