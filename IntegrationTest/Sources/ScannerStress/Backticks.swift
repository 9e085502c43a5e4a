// Type and property names that need backticks.
enum `default` {
  struct `Theme Settings` {
    @Preference var `class` = "x"
    @Preference var `Type` = 1
  }
}

extension `default`.`Theme Settings` {
  struct Nested {
    @Preference var value = 2.5
  }
}
