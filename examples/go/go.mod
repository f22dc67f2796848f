module libjump.io/examples

go 1.19

require libjump.io/jump v0.0.0

// The binding in this checkout; an app outside it points the replace at its own copy of bindings/go.
replace libjump.io/jump => ../../bindings/go
