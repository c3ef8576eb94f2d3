package deployment_test

import (
	"testing"

	"converge/core/controller"
	"converge/core/controller/deployment"
	"converge/core/simtest/controllertest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	controllertest.Run(t, controllertest.Options{
		Name: deployment.Component,
		New:  func() controller.Controller { return deployment.New() },
	})
}
