module libjump.io/jump

go 1.19
