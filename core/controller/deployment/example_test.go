package deployment_test

import (
	"fmt"

	"converge/core/api"
	"converge/core/controller/deployment"
)

func ExampleFencepostMath() {
	pct := func(s string) *api.IntOrString { v := api.FromString(s); return &v }
	surge, unavailable := deployment.FencepostMath(pct("25%"), pct("25%"), 10)
	fmt.Println(surge)
	fmt.Println(unavailable)
	zero := api.FromInt(0)
	_, unavailable = deployment.FencepostMath(&zero, pct("10%"), 3)
	fmt.Println(unavailable)
	// Output:
	// maxSurge 25% of 10 = 2.5, rounded up to 3
	// maxUnavailable 25% of 10 = 2.5, rounded down to 2
	// maxUnavailable 10% of 3 = 0.3, rounded down to 0; maxSurge 0 and maxUnavailable 0: maxUnavailable becomes 1
}

func ExampleResolveFenceposts() {
	pct := func(s string) *api.IntOrString { v := api.FromString(s); return &v }
	for _, n := range []int32{10, 3, 1} {
		surge, unavailable, _ := deployment.ResolveFenceposts(pct("25%"), pct("25%"), n)
		fmt.Printf("%d replicas: maxSurge %d, maxUnavailable %d\n", n, surge, unavailable)
	}
	// Output:
	// 10 replicas: maxSurge 3, maxUnavailable 2
	// 3 replicas: maxSurge 1, maxUnavailable 0
	// 1 replicas: maxSurge 1, maxUnavailable 0
}
