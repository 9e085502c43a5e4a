enum ScannerPlaceholder {}
