import Preferences

/// 96 declarations, each with a default equal to its number, for the test that resolves them
/// on many threads at once (more than the declaration table's first capacity, so that it grows
/// while other threads read it).
struct ManyDeclarations {
  nonisolated static let store = PreferenceStore.inMemory()
  @Preference(store: ManyDeclarations.store) var p0 = 0
  @Preference(store: ManyDeclarations.store) var p1 = 1
  @Preference(store: ManyDeclarations.store) var p2 = 2
  @Preference(store: ManyDeclarations.store) var p3 = 3
  @Preference(store: ManyDeclarations.store) var p4 = 4
  @Preference(store: ManyDeclarations.store) var p5 = 5
  @Preference(store: ManyDeclarations.store) var p6 = 6
  @Preference(store: ManyDeclarations.store) var p7 = 7
  @Preference(store: ManyDeclarations.store) var p8 = 8
  @Preference(store: ManyDeclarations.store) var p9 = 9
  @Preference(store: ManyDeclarations.store) var p10 = 10
  @Preference(store: ManyDeclarations.store) var p11 = 11
  @Preference(store: ManyDeclarations.store) var p12 = 12
  @Preference(store: ManyDeclarations.store) var p13 = 13
  @Preference(store: ManyDeclarations.store) var p14 = 14
  @Preference(store: ManyDeclarations.store) var p15 = 15
  @Preference(store: ManyDeclarations.store) var p16 = 16
  @Preference(store: ManyDeclarations.store) var p17 = 17
  @Preference(store: ManyDeclarations.store) var p18 = 18
  @Preference(store: ManyDeclarations.store) var p19 = 19
  @Preference(store: ManyDeclarations.store) var p20 = 20
  @Preference(store: ManyDeclarations.store) var p21 = 21
  @Preference(store: ManyDeclarations.store) var p22 = 22
  @Preference(store: ManyDeclarations.store) var p23 = 23
  @Preference(store: ManyDeclarations.store) var p24 = 24
  @Preference(store: ManyDeclarations.store) var p25 = 25
  @Preference(store: ManyDeclarations.store) var p26 = 26
  @Preference(store: ManyDeclarations.store) var p27 = 27
  @Preference(store: ManyDeclarations.store) var p28 = 28
  @Preference(store: ManyDeclarations.store) var p29 = 29
  @Preference(store: ManyDeclarations.store) var p30 = 30
  @Preference(store: ManyDeclarations.store) var p31 = 31
  @Preference(store: ManyDeclarations.store) var p32 = 32
  @Preference(store: ManyDeclarations.store) var p33 = 33
  @Preference(store: ManyDeclarations.store) var p34 = 34
  @Preference(store: ManyDeclarations.store) var p35 = 35
  @Preference(store: ManyDeclarations.store) var p36 = 36
  @Preference(store: ManyDeclarations.store) var p37 = 37
  @Preference(store: ManyDeclarations.store) var p38 = 38
  @Preference(store: ManyDeclarations.store) var p39 = 39
  @Preference(store: ManyDeclarations.store) var p40 = 40
  @Preference(store: ManyDeclarations.store) var p41 = 41
  @Preference(store: ManyDeclarations.store) var p42 = 42
  @Preference(store: ManyDeclarations.store) var p43 = 43
  @Preference(store: ManyDeclarations.store) var p44 = 44
  @Preference(store: ManyDeclarations.store) var p45 = 45
  @Preference(store: ManyDeclarations.store) var p46 = 46
  @Preference(store: ManyDeclarations.store) var p47 = 47
  @Preference(store: ManyDeclarations.store) var p48 = 48
  @Preference(store: ManyDeclarations.store) var p49 = 49
  @Preference(store: ManyDeclarations.store) var p50 = 50
  @Preference(store: ManyDeclarations.store) var p51 = 51
  @Preference(store: ManyDeclarations.store) var p52 = 52
  @Preference(store: ManyDeclarations.store) var p53 = 53
  @Preference(store: ManyDeclarations.store) var p54 = 54
  @Preference(store: ManyDeclarations.store) var p55 = 55
  @Preference(store: ManyDeclarations.store) var p56 = 56
  @Preference(store: ManyDeclarations.store) var p57 = 57
  @Preference(store: ManyDeclarations.store) var p58 = 58
  @Preference(store: ManyDeclarations.store) var p59 = 59
  @Preference(store: ManyDeclarations.store) var p60 = 60
  @Preference(store: ManyDeclarations.store) var p61 = 61
  @Preference(store: ManyDeclarations.store) var p62 = 62
  @Preference(store: ManyDeclarations.store) var p63 = 63
  @Preference(store: ManyDeclarations.store) var p64 = 64
  @Preference(store: ManyDeclarations.store) var p65 = 65
  @Preference(store: ManyDeclarations.store) var p66 = 66
  @Preference(store: ManyDeclarations.store) var p67 = 67
  @Preference(store: ManyDeclarations.store) var p68 = 68
  @Preference(store: ManyDeclarations.store) var p69 = 69
  @Preference(store: ManyDeclarations.store) var p70 = 70
  @Preference(store: ManyDeclarations.store) var p71 = 71
  @Preference(store: ManyDeclarations.store) var p72 = 72
  @Preference(store: ManyDeclarations.store) var p73 = 73
  @Preference(store: ManyDeclarations.store) var p74 = 74
  @Preference(store: ManyDeclarations.store) var p75 = 75
  @Preference(store: ManyDeclarations.store) var p76 = 76
  @Preference(store: ManyDeclarations.store) var p77 = 77
  @Preference(store: ManyDeclarations.store) var p78 = 78
  @Preference(store: ManyDeclarations.store) var p79 = 79
  @Preference(store: ManyDeclarations.store) var p80 = 80
  @Preference(store: ManyDeclarations.store) var p81 = 81
  @Preference(store: ManyDeclarations.store) var p82 = 82
  @Preference(store: ManyDeclarations.store) var p83 = 83
  @Preference(store: ManyDeclarations.store) var p84 = 84
  @Preference(store: ManyDeclarations.store) var p85 = 85
  @Preference(store: ManyDeclarations.store) var p86 = 86
  @Preference(store: ManyDeclarations.store) var p87 = 87
  @Preference(store: ManyDeclarations.store) var p88 = 88
  @Preference(store: ManyDeclarations.store) var p89 = 89
  @Preference(store: ManyDeclarations.store) var p90 = 90
  @Preference(store: ManyDeclarations.store) var p91 = 91
  @Preference(store: ManyDeclarations.store) var p92 = 92
  @Preference(store: ManyDeclarations.store) var p93 = 93
  @Preference(store: ManyDeclarations.store) var p94 = 94
  @Preference(store: ManyDeclarations.store) var p95 = 95

  /// Reads declaration `number`.
  func read(_ number: Int) -> Int {
    switch number {
    case 0: p0
    case 1: p1
    case 2: p2
    case 3: p3
    case 4: p4
    case 5: p5
    case 6: p6
    case 7: p7
    case 8: p8
    case 9: p9
    case 10: p10
    case 11: p11
    case 12: p12
    case 13: p13
    case 14: p14
    case 15: p15
    case 16: p16
    case 17: p17
    case 18: p18
    case 19: p19
    case 20: p20
    case 21: p21
    case 22: p22
    case 23: p23
    case 24: p24
    case 25: p25
    case 26: p26
    case 27: p27
    case 28: p28
    case 29: p29
    case 30: p30
    case 31: p31
    case 32: p32
    case 33: p33
    case 34: p34
    case 35: p35
    case 36: p36
    case 37: p37
    case 38: p38
    case 39: p39
    case 40: p40
    case 41: p41
    case 42: p42
    case 43: p43
    case 44: p44
    case 45: p45
    case 46: p46
    case 47: p47
    case 48: p48
    case 49: p49
    case 50: p50
    case 51: p51
    case 52: p52
    case 53: p53
    case 54: p54
    case 55: p55
    case 56: p56
    case 57: p57
    case 58: p58
    case 59: p59
    case 60: p60
    case 61: p61
    case 62: p62
    case 63: p63
    case 64: p64
    case 65: p65
    case 66: p66
    case 67: p67
    case 68: p68
    case 69: p69
    case 70: p70
    case 71: p71
    case 72: p72
    case 73: p73
    case 74: p74
    case 75: p75
    case 76: p76
    case 77: p77
    case 78: p78
    case 79: p79
    case 80: p80
    case 81: p81
    case 82: p82
    case 83: p83
    case 84: p84
    case 85: p85
    case 86: p86
    case 87: p87
    case 88: p88
    case 89: p89
    case 90: p90
    case 91: p91
    case 92: p92
    case 93: p93
    case 94: p94
    case 95: p95
    default: -1
    }
  }
}
