// Generated code often maps lines back to a template: the compiler reports these declarations
// at the template's lines, and the registry must find them there.
#sourceLocation(file:"Templates/Settings.gyb",line:40)
struct Generated {
  @Preference var fromTemplate = "gyb"
  @Preference var secondFromTemplate = 2
}
#sourceLocation()
struct AfterTemplate {
  @Preference var back = true
}
