// The default corpus in Swift 6 with no default isolation: every form reads back through the
// wrapper and through its typed key.
import IntegrationSupport

checkDefaultCorpus()
