import ComandaCore
import Testing

@Suite struct RolTests {
    /// Every role against every required staff role: only the role itself and `gerente` pass.
    @Test(arguments: Rol.allCases)
    func passesOnlyItsOwnStaffCheck_andGerentePassesEvery(rol: Rol) {
        for required in [Rol.anfitrion, .cocina, .gerente] {
            #expect(rol.passes(required) == (rol == required || rol == .gerente), "\(rol) for \(required)")
        }
    }

    @Test func passingListsTheRoleAndTheManager() {
        #expect(Rol.passing(.anfitrion) == [.anfitrion, .gerente])
        #expect(Rol.passing(.cocina) == [.cocina, .gerente])
        #expect(Rol.passing(.gerente) == [.gerente])
    }
}
