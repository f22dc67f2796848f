module libjump/jump

go 1.19
