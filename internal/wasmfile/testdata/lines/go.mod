module lines

go 1.26
