package nodelifecycle_test

import (
	"testing"

	"converge/core/controller"
	"converge/core/controller/nodelifecycle"
	"converge/core/simtest/controllertest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	controllertest.Run(t, controllertest.Options{
		Name: nodelifecycle.Component,
		New:  func() controller.Controller { return nodelifecycle.New(nodelifecycle.Options{}) },
	})
}
