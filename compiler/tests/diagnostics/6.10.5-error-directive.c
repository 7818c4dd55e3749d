#error "unsupported configuration"
