package endpoints_test

import (
	"testing"

	"converge/core/controller"
	"converge/core/controller/endpoints"
	"converge/core/simtest/controllertest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	controllertest.Run(t, controllertest.Options{
		Name: endpoints.Component,
		New:  func() controller.Controller { return endpoints.New() },
	})
}
