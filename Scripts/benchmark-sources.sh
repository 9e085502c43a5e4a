# Sourced by the build benchmarks: the source files of a benchmark target, so that every script
# measures the same code.

# Writes Screen1.swift … Screen$4.swift into $1, each importing module $2 and declaring a type
# with 4 properties that carry attribute $3 (`@Preference `, `@Simple `, or empty for plain
# stored properties) and one plain property.
write_screens() { # $1 = directory, $2 = module to import, $3 = attribute and space, $4 = files
  local i
  for i in $(seq 1 "$4"); do
    cat >"$1/Screen$i.swift" <<SWIFT
import $2

/// Screen $i.
struct Screen$i {
  ${3//KEY/Screen$i.title}var title = "Screen $i"
  ${3//KEY/Screen$i.count}var count = $i
  ${3//KEY/Screen$i.isEnabled}var isEnabled = true
  ${3//KEY/Screen$i.ratio}var ratio = 0.5
  var local = 0

  func render() -> String { "\(title) \(count) \(isEnabled) \(ratio) \(local)" }
}
SWIFT
  done
}
